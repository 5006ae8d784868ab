<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>rd::desk::Main</name>
    <message>
        <source>local (embedded)</source>
        <translation>lokal (eingebettet)</translation>
    </message>
    <message>
        <source>Renewal Desk</source>
        <translation>Renewal Desk</translation>
    </message>
    <message>
        <source>Could not open the database:
%1</source>
        <translation>Die Datenbank konnte nicht geöffnet werden:
%1</translation>
    </message>
</context>
<context>
    <name>rd::ui::AccessActions</name>
    <message>
        <source>Could not extend the grace of %1: %2</source>
        <translation>Die Kulanzfrist von %1 konnte nicht verlängert werden: %2</translation>
    </message>
    <message>
        <source>Could not extend the grace of %1: no such day</source>
        <translation>Die Kulanzfrist von %1 konnte nicht verlängert werden: Diesen Tag gibt es nicht</translation>
    </message>
    <message>
        <source>Grace of %1 extended. %2</source>
        <translation>Kulanzfrist von %1 verlängert. %2</translation>
    </message>
</context>
<context>
    <name>rd::ui::AccessTrouble</name>
    <message>
        <source>in grace</source>
        <translation>in Kulanzfrist</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>good standing</source>
        <translation>in Ordnung</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>local policy</source>
        <translation>lokale Regel</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Bearbeiter</translation>
    </message>
    <message>
        <source>1 day %1 h left</source>
        <translation>noch 1 Tag %1 h</translation>
    </message>
    <message>
        <source>%1 days %2 h left</source>
        <translation>noch %1 Tage %2 h</translation>
    </message>
    <message>
        <source>%1 h left</source>
        <translation>noch %1 h</translation>
    </message>
    <message>
        <source>%1 min left</source>
        <translation>noch %1 min</translation>
    </message>
    <message>
        <source>Access: %1 until %2 (%3)</source>
        <translation>Zugang: %1 bis %2 (%3)</translation>
    </message>
    <message>
        <source>Access: %1 since %2 (%3)</source>
        <translation>Zugang: %1 seit %2 (%3)</translation>
    </message>
    <message>
        <source>Payment failed: attempt %1 of %2</source>
        <translation>Zahlung fehlgeschlagen: Versuch %1 für %2</translation>
    </message>
    <message>
        <source>, next attempt %1</source>
        <translation>, nächster Versuch %1</translation>
    </message>
    <message>
        <source>, no further attempt announced</source>
        <translation>, kein weiterer Versuch angekündigt</translation>
    </message>
    <message>
        <source>Provider&apos;s standing: %1</source>
        <translation>Stand beim Anbieter: %1</translation>
    </message>
    <message>
        <source>Grace extended until %1</source>
        <translation>Kulanzfrist verlängert bis %1</translation>
    </message>
    <message>
        <source>Access: good standing again (was %1)</source>
        <translation>Zugang: wieder in Ordnung (war %1)</translation>
    </message>
    <message>
        <source>Access: %1 (%2)</source>
        <translation>Zugang: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>rd::ui::ActionResult</name>
    <message>
        <source>There is no such case.</source>
        <translation>Diesen Fall gibt es nicht.</translation>
    </message>
    <message>
        <source>The case is closed already.</source>
        <translation>Der Fall ist bereits abgeschlossen.</translation>
    </message>
    <message>
        <source>The case has no complete renewal to re-apply; attach a provider snapshot.</source>
        <translation>Der Fall enthält keine vollständige Verlängerung, die erneut angewendet werden könnte; hängen Sie einen Anbieter-Snapshot an.</translation>
    </message>
    <message>
        <source>A note is required.</source>
        <translation>Eine Notiz ist erforderlich.</translation>
    </message>
    <message>
        <source>Choose one of the listed reasons.</source>
        <translation>Wählen Sie einen der aufgeführten Gründe.</translation>
    </message>
    <message>
        <source>The snapshot is older than the one already recorded.</source>
        <translation>Der Snapshot ist älter als der bereits erfasste.</translation>
    </message>
    <message>
        <source>The renewal key is recorded already with other facts.</source>
        <translation>Der Verlängerungsschlüssel ist bereits mit anderen Angaben erfasst.</translation>
    </message>
    <message>
        <source>The snapshot would move the current period backwards.</source>
        <translation>Der Snapshot würde den aktuellen Zeitraum zurücksetzen.</translation>
    </message>
    <message>
        <source>The snapshot is of another subscription than the case&apos;s.</source>
        <translation>Der Snapshot gehört zu einem anderen Abonnement als der Fall.</translation>
    </message>
    <message>
        <source>The snapshot&apos;s renewal does not agree with the one recorded.</source>
        <translation>Die Verlängerung des Snapshots stimmt nicht mit der erfassten überein.</translation>
    </message>
    <message>
        <source>The provider is registered already.</source>
        <translation>Der Anbieter ist bereits registriert.</translation>
    </message>
    <message>
        <source>The snapshot is dated in the future.</source>
        <translation>Der Snapshot ist in die Zukunft datiert.</translation>
    </message>
    <message>
        <source>The provider is not registered.</source>
        <translation>Der Anbieter ist nicht registriert.</translation>
    </message>
    <message>
        <source>The statement run is finished already.</source>
        <translation>Der Abrechnungslauf ist bereits beendet.</translation>
    </message>
    <message>
        <source>The month cannot be closed now.</source>
        <translation>Der Monat kann jetzt nicht abgeschlossen werden.</translation>
    </message>
    <message>
        <source>The case cannot be reopened.</source>
        <translation>Der Fall kann nicht wieder geöffnet werden.</translation>
    </message>
    <message>
        <source>There is no such delivery.</source>
        <translation>Diese Zustellung gibt es nicht.</translation>
    </message>
    <message>
        <source>The delivery is not an invalid one.</source>
        <translation>Die Zustellung ist keine ungültige.</translation>
    </message>
    <message>
        <source>The delivery was reviewed already.</source>
        <translation>Die Zustellung wurde bereits geprüft.</translation>
    </message>
    <message>
        <source>No retention is configured.</source>
        <translation>Es ist keine Aufbewahrungsfrist eingestellt.</translation>
    </message>
    <message>
        <source>Removing bodies of an age you choose needs an operator.</source>
        <translation>Inhalte eines selbst gewählten Alters zu entfernen, erfordert einen Bearbeiter.</translation>
    </message>
    <message>
        <source>The same work is running elsewhere; try again when it has finished.</source>
        <translation>Dieselbe Arbeit läuft gerade anderswo; versuchen Sie es erneut, wenn sie beendet ist.</translation>
    </message>
    <message>
        <source>There is no such subscription.</source>
        <translation>Dieses Abonnement gibt es nicht.</translation>
    </message>
    <message>
        <source>The grace cannot be extended: the last day must be after today and at most 90 days ahead, and the subscription&apos;s access must not have ended.</source>
        <translation>Die Kulanzfrist kann nicht verlängert werden: Der letzte Tag muss nach heute und höchstens 90 Tage voraus liegen, und der Zugang des Abonnements darf nicht beendet sein.</translation>
    </message>
</context>
<context>
    <name>rd::ui::ApplicableDialog</name>
    <message>
        <source>Re-apply the cases applicable now</source>
        <translation>Jetzt anwendbare Fälle erneut anwenden</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Renewal period</source>
        <translation>Verlängerungszeitraum</translation>
    </message>
    <message>
        <source>What changed, for whoever reads each case&apos;s history</source>
        <translation>Was sich geändert hat – für alle, die den Verlauf des Falls lesen</translation>
    </message>
    <message>
        <source>Applicable now: the renewal core&apos;s own verdict on each case&apos;s renewal against the subscription as it is now (the period continues the current one, the subscription is active, not scheduled to cancel, and exists). Each case is re-applied through the core on its own; one that changed since this preview is refused and shown so.</source>
        <translation>Jetzt anwendbar: das eigene Urteil des Verlängerungskerns über die Verlängerung jedes Falls, gemessen am aktuellen Stand des Abonnements (der Zeitraum schließt an den aktuellen an, das Abonnement ist aktiv, nicht zur Kündigung vorgemerkt und vorhanden). Jeder Fall wird einzeln über den Kern erneut angewendet; ein Fall, der sich seit dieser Vorschau geändert hat, wird abgelehnt und als solcher angezeigt.</translation>
    </message>
    <message>
        <source>Open cases of</source>
        <translation>Offene Fälle mit</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>Reading the open cases…</source>
        <translation>Offene Fälle werden gelesen…</translation>
    </message>
    <message>
        <source>Every reason (%1 open)</source>
        <translation>Jeder Grund (%1 offen)</translation>
    </message>
    <message>
        <source>%1 (%2 open)</source>
        <translation>%1 (%2 offen)</translation>
    </message>
    <message>
        <source>Asking the renewal core which cases it would apply now…</source>
        <translation>Der Verlängerungskern wird gefragt, welche Fälle er jetzt anwenden würde…</translation>
    </message>
    <message>
        <source>of any reason</source>
        <translation>mit beliebigem Grund</translation>
    </message>
    <message>
        <source>No open case (%1) is applicable now: nothing to re-apply.</source>
        <translation>Kein offener Fall (%1) ist jetzt anwendbar: Es gibt nichts erneut anzuwenden.</translation>
    </message>
    <message>
        <source>1 open case (%1) would be applied now:</source>
        <translation>1 offener Fall (%1) würde jetzt angewendet:</translation>
    </message>
    <message>
        <source>%1 open cases (%2) would be applied now:</source>
        <translation>%1 offene Fälle (%2) würden jetzt angewendet:</translation>
    </message>
    <message>
        <source>Re-apply 1 case</source>
        <translation>1 Fall erneut anwenden</translation>
    </message>
    <message>
        <source>Re-apply %1 cases</source>
        <translation>%1 Fälle erneut anwenden</translation>
    </message>
</context>
<context>
    <name>rd::ui::AsyncResult</name>
    <message>
        <source>unexpected error</source>
        <translation>unerwarteter Fehler</translation>
    </message>
</context>
<context>
    <name>rd::ui::AuditDetails</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>current period</source>
        <translation>aktueller Zeitraum</translation>
    </message>
    <message>
        <source>cancels at period end</source>
        <translation>kündigt zum Ende des Zeitraums</translation>
    </message>
    <message>
        <source>provider version</source>
        <translation>Anbieterversion</translation>
    </message>
    <message>
        <source>revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <source>provider snapshot</source>
        <translation>Anbieter-Snapshot</translation>
    </message>
    <message>
        <source>case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>subscription (internal id)</source>
        <translation>Abonnement (interne ID)</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht erfasst</translation>
    </message>
    <message>
        <source>The renewal&apos;s provider version is known from the state after it, which a later change no longer shows</source>
        <translation>Die Anbieterversion der Verlängerung ist aus dem Zustand danach bekannt, den eine spätere Änderung nicht mehr zeigt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>amount paid</source>
        <translation>gezahlter Betrag</translation>
    </message>
    <message>
        <source>fields changed</source>
        <translation>geänderte Felder</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>by</source>
        <translation>von</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>note</source>
        <translation>Notiz</translation>
    </message>
</context>
<context>
    <name>rd::ui::AuditLog</name>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Case %1</source>
        <translation>Fall %1</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>%1 webhook</source>
        <translation>%1-Webhook</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Database role</source>
        <translation>Datenbankrolle</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>Row hash</source>
        <translation>Zeilen-Hash</translation>
    </message>
    <message>
        <source>Subscription id</source>
        <translation>Abonnement-ID</translation>
    </message>
</context>
<context>
    <name>rd::ui::AuditLogPage</name>
    <message>
        <source>&quot;%1&quot; (%2) is not a date (2026-11-30) or a time with its offset (2026-11-30T09:00:00Z)</source>
        <translation>„%1“ (%2) ist weder ein Datum (2026-11-30) noch eine Uhrzeit mit Zeitzonenversatz (2026-11-30T09:00:00Z)</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Verify against anchor…</source>
        <translation>Gegen Anker prüfen…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open broken record</source>
        <translation>Defekten Eintrag öffnen</translation>
    </message>
    <message>
        <source>Export for auditor…</source>
        <translation>Für Prüfer exportieren…</translation>
    </message>
    <message>
        <source>From (2026-11-01)</source>
        <translation>Ab (2026-11-01)</translation>
    </message>
    <message>
        <source>Before (2026-12-01)</source>
        <translation>Vor (2026-12-01)</translation>
    </message>
    <message>
        <source>A date (local midnight) or a time with its offset, 2026-11-30T09:00:00Z</source>
        <translation>Ein Datum (lokale Mitternacht) oder eine Uhrzeit mit Zeitzonenversatz, 2026-11-30T09:00:00Z</translation>
    </message>
    <message>
        <source>Every transition and action</source>
        <translation>Jeder Übergang und jede Aktion</translation>
    </message>
    <message>
        <source>Subscription %1</source>
        <translation>Abonnement %1</translation>
    </message>
    <message>
        <source>Case %1</source>
        <translation>Fall %1</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>Alle Anbieter</translation>
    </message>
    <message>
        <source>Actor (alice)</source>
        <translation>Akteur (alice)</translation>
    </message>
    <message>
        <source>An operator&apos;s login or an import&apos;s name; a provider&apos;s webhook is found with the provider filter</source>
        <translation>Die Anmeldung eines Bearbeiters oder der Name eines Imports; den Webhook eines Anbieters findet der Anbieterfilter</translation>
    </message>
    <message>
        <source>Database role</source>
        <translation>Datenbankrolle</translation>
    </message>
    <message>
        <source>Subscription (sub_… or uuid)</source>
        <translation>Abonnement (sub_… oder UUID)</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Hash chains not verified in this session.</source>
        <translation>Hash-Ketten in dieser Sitzung nicht geprüft.</translation>
    </message>
    <message>
        <source>Recompute every hash of every chain (renewalctl audit verify)</source>
        <translation>Jeden Hash jeder Kette neu berechnen (renewalctl audit verify)</translation>
    </message>
    <message>
        <source>Verify, and check that the chains&apos; heads recorded in an anchor file are still in place</source>
        <translation>Prüfen und sicherstellen, dass die in einer Ankerdatei erfassten Kettenköpfe noch vorhanden sind</translation>
    </message>
    <message>
        <source>The filtered rows as CSV (ISO UTC instants) and an anchor of every chain&apos;s head beside it</source>
        <translation>Die gefilterten Zeilen als CSV (ISO-UTC-Zeitpunkte) und daneben ein Anker mit dem Kopf jeder Kette</translation>
    </message>
    <message>
        <source>Verify against anchor</source>
        <translation>Gegen Anker prüfen</translation>
    </message>
    <message>
        <source>Audit anchors (*.json);;All files (*)</source>
        <translation>Prüfanker (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export for auditor</source>
        <translation>Für Prüfer exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Verifying… %1 of about %2 rows, %3 chains</source>
        <translation>Prüfung läuft… %1 von etwa %2 Zeilen, %3 Ketten</translation>
    </message>
    <message>
        <source>from</source>
        <translation>ab</translation>
    </message>
    <message>
        <source>before</source>
        <translation>vor</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a case number</source>
        <translation>„%1“ ist keine Fallnummer</translation>
    </message>
    <message>
        <source>after</source>
        <translation>nach</translation>
    </message>
    <message>
        <source>recorded</source>
        <translation>erfasst</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>Prüfung läuft…</translation>
    </message>
    <message>
        <source>Verification canceled.</source>
        <translation>Prüfung abgebrochen.</translation>
    </message>
    <message>
        <source>Could not verify: %1</source>
        <translation>Prüfung nicht möglich: %1</translation>
    </message>
    <message>
        <source> (anchor %1 matched: %2 heads, digest %3)</source>
        <translation> (Anker %1 stimmt überein: %2 Köpfe, Prüfsumme %3)</translation>
    </message>
    <message>
        <source> — anchor %1 does NOT match: %2 of %3 heads changed or gone; first: %4</source>
        <translation> – Anker %1 stimmt NICHT überein: %2 von %3 Köpfen geändert oder fehlend; erster: %4</translation>
    </message>
    <message>
        <source>✓ verified %1 rows in %2 chains at %3%4</source>
        <translation>✓ %1 Zeilen in %2 Ketten geprüft um %3%4</translation>
    </message>
    <message>
        <source>Open case %1</source>
        <translation>Fall %1 öffnen</translation>
    </message>
    <message>
        <source>Open subscription</source>
        <translation>Abonnement öffnen</translation>
    </message>
    <message>
        <source>Open subscription %1</source>
        <translation>Abonnement %1 öffnen</translation>
    </message>
    <message>
        <source>The case&apos;s history, where the broken entry is</source>
        <translation>Der Verlauf des Falls, in dem der defekte Eintrag steht</translation>
    </message>
    <message>
        <source>The subscription&apos;s audit trail, the record at position %1 flagged</source>
        <translation>Das Prüfprotokoll des Abonnements, der Eintrag an Position %1 markiert</translation>
    </message>
    <message>
        <source>✗ %1 rows in %2 chains verified at %3, but%4</source>
        <translation>✗ %1 Zeilen in %2 Ketten geprüft um %3, aber%4</translation>
    </message>
    <message>
        <source> The anchor covers each chain&apos;s newest row only; the break is in an older one.</source>
        <translation> Der Anker deckt nur die neueste Zeile jeder Kette ab; der Bruch liegt in einer älteren.</translation>
    </message>
    <message>
        <source>✗ chain broken: %1 (%2%3 break(s) in %4 rows, verified at %5)%6%7</source>
        <translation>✗ Kette gebrochen: %1 (%2%3 Bruchstelle(n) in %4 Zeilen, geprüft um %5)%6%7</translation>
    </message>
    <message>
        <source>Exporting the audit log to %1…</source>
        <translation>Das Prüfprotokoll wird nach %1 exportiert…</translation>
    </message>
    <message>
        <source>Exported %1 rows to %2 and the anchor of %3 chains to %4 (digest %5).</source>
        <translation>%1 Zeilen nach %2 und der Anker von %3 Ketten nach %4 exportiert (Prüfsumme %5).</translation>
    </message>
    <message>
        <source>The chains verify (%1).</source>
        <translation>Die Ketten sind gültig (%1).</translation>
    </message>
    <message>
        <source>The audit chains are BROKEN: %1 break(s), first: %2. Said in %3.</source>
        <translation>Die Prüfketten sind GEBROCHEN: %1 Bruchstelle(n), erste: %2. Festgehalten in %3.</translation>
    </message>
</context>
<context>
    <name>rd::ui::AuditVerifier</name>
    <message>
        <source>cannot read the anchor %1: %2</source>
        <translation>Der Anker %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is refused: %2</source>
        <translation>%1 wird abgelehnt: %2</translation>
    </message>
    <message>
        <source>%1 is not an audit anchor (no &quot;heads&quot; list)</source>
        <translation>%1 ist kein Prüfanker (keine „heads“-Liste)</translation>
    </message>
    <message>
        <source>%1 is not an audit anchor: %2</source>
        <translation>%1 ist kein Prüfanker: %2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Audit chains verified at %1 (UTC): %2 rows in %3 chains.</source>
        <translation>Prüfketten geprüft um %1 (UTC): %2 Zeilen in %3 Ketten.</translation>
    </message>
    <message>
        <source>Result: intact. Every row&apos;s hash matches its content and links to the row before it, and every billing period matches the audit row that recorded it.</source>
        <translation>Ergebnis: intakt. Der Hash jeder Zeile passt zu ihrem Inhalt und verweist auf die Zeile davor, und jeder Abrechnungszeitraum passt zu der Prüfzeile, die ihn erfasst hat.</translation>
    </message>
    <message>
        <source>Result: BROKEN, %1 break(s)%2. The rows below do not verify: what they say cannot be proven unaltered.</source>
        <translation>Ergebnis: GEBROCHEN, %1 Bruchstelle(n)%2. Die folgenden Zeilen sind nicht gültig: Es lässt sich nicht beweisen, dass ihr Inhalt unverändert ist.</translation>
    </message>
    <message>
        <source> (and more than listed)</source>
        <translation> (und mehr als aufgeführt)</translation>
    </message>
    <message>
        <source>Broken: %1</source>
        <translation>Gebrochen: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::BackupDialog</name>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>Sichern</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Back up the database</source>
        <translation>Datenbank sichern</translation>
    </message>
    <message>
        <source>Copies the whole database — subscriptions, ledger, cases and the audit trail — into one file, from one consistent snapshot, with the audit anchor and the counts to prove a restore by. The desk stays usable while it runs.</source>
        <translation>Kopiert die gesamte Datenbank – Abonnements, Hauptbuch, Fälle und das Prüfprotokoll – aus einem konsistenten Snapshot in eine Datei, mit dem Prüfanker und den Zeilenzahlen, an denen sich eine Wiederherstellung belegen lässt. Der Desk bleibt währenddessen benutzbar.</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>The status bar and the Overview turn amber when the last backup is older than this.</source>
        <translation>Statusleiste und Übersicht werden gelb, wenn die letzte Sicherung älter ist.</translation>
    </message>
    <message>
        <source>Save to:</source>
        <translation>Speichern unter:</translation>
    </message>
    <message>
        <source>(the status bar and the Overview warn after that)</source>
        <translation>(danach warnen Statusleiste und Übersicht)</translation>
    </message>
    <message>
        <source>Warn when older than:</source>
        <translation>Warnen, wenn älter als:</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>Größe:</translation>
    </message>
    <message>
        <source>Snapshot taken:</source>
        <translation>Snapshot erstellt:</translation>
    </message>
    <message>
        <source>It holds:</source>
        <translation>Enthält:</translation>
    </message>
    <message>
        <source>Back up to</source>
        <translation>Sichern nach</translation>
    </message>
    <message>
        <source>Renewal Desk backups (*.backup);;All files (*)</source>
        <translation>Renewal-Desk-Sicherungen (*.backup);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose where to save the backup file.</source>
        <translation>Wählen Sie, wo die Sicherungsdatei gespeichert werden soll.</translation>
    </message>
    <message>
        <source>%1 exists already: choose a new file name (a backup never overwrites another).</source>
        <translation>%1 existiert bereits: Wählen Sie einen neuen Dateinamen (eine Sicherung überschreibt nie eine andere).</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>and %1</source>
        <translation>und %1</translation>
    </message>
    <message>
        <source>Backup complete.</source>
        <translation>Sicherung abgeschlossen.</translation>
    </message>
    <message>
        <source>The backup is complete, but the database&apos;s backup log could not record it (%1): the desk&apos;s &quot;Last backup&quot; will not show it.</source>
        <translation>Die Sicherung ist abgeschlossen, aber das Sicherungsprotokoll der Datenbank konnte sie nicht erfassen (%1): „Letzte Sicherung“ im Desk zeigt sie nicht an.</translation>
    </message>
    <message>
        <source>The SHA-256 digest of the whole file: keep it apart from the file (a note, a ticket) to prove later that the file you restore is the one backed up. File › Restore… refuses any other file.</source>
        <translation>Die SHA-256-Prüfsumme der ganzen Datei: getrennt von der Datei aufbewahren (eine Notiz, ein Ticket), um später zu belegen, dass die wiederhergestellte Datei die gesicherte ist. Datei › Wiederherstellen… weist jede andere Datei ab.</translation>
    </message>
    <message>
        <source>File digest (SHA-256):</source>
        <translation>Prüfsumme der Datei (SHA-256):</translation>
    </message>
    <message>
        <source>Backup complete.
File: %1
Size: %2
Snapshot taken: %3
It holds: %4
File SHA-256: %5
Audit anchor: %6</source>
        <translation>Sicherung abgeschlossen.
Datei: %1
Größe: %2
Snapshot erstellt: %3
Enthält: %4
SHA-256 der Datei: %5
Prüfanker: %6</translation>
    </message>
    <message>
        <source>Backup complete, but the audit chains are broken.</source>
        <translation>Sicherung abgeschlossen, aber die Prüfketten sind gebrochen.</translation>
    </message>
    <message>
        <source>The database&apos;s audit chains were already broken when this backup was taken: %1 break(s), first: %2. The file records them: a restore of it accepts exactly these breaks, says so, and refuses any other. Find out why in the Audit log (Verify).</source>
        <translation>Die Prüfketten der Datenbank waren bereits gebrochen, als diese Sicherung erstellt wurde: %1 Bruchstelle(n), erste: %2. Die Datei hält sie fest: Eine Wiederherstellung akzeptiert genau diese Bruchstellen, sagt es und lehnt jede andere ab. Die Ursache finden Sie im Prüfprotokoll (Prüfen).</translation>
    </message>
    <message>
        <source>Warning: taken with the audit chains broken: %1</source>
        <translation>Warnung: erstellt mit gebrochenen Prüfketten: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::BackupJobs</name>
    <message>
        <source>billing periods</source>
        <translation>Abrechnungszeiträume</translation>
    </message>
    <message>
        <source>audit entries</source>
        <translation>Prüfprotokolleinträge</translation>
    </message>
    <message>
        <source>outbox intents</source>
        <translation>Postausgangsaufträge</translation>
    </message>
    <message>
        <source>subscriptions</source>
        <translation>Abonnements</translation>
    </message>
    <message>
        <source>cases</source>
        <translation>Fälle</translation>
    </message>
    <message>
        <source>case history entries</source>
        <translation>Fallverlaufseinträge</translation>
    </message>
    <message>
        <source>deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>provider snapshots</source>
        <translation>Anbieter-Snapshots</translation>
    </message>
    <message>
        <source>statement lines</source>
        <translation>Abrechnungszeilen</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 rows in %2 other tables</source>
        <translation>%1 Zeilen in %2 weiteren Tabellen</translation>
    </message>
    <message>
        <source>Taking a consistent snapshot of the database…</source>
        <translation>Konsistenter Snapshot der Datenbank wird erstellt…</translation>
    </message>
    <message>
        <source>Writing the backup file…</source>
        <translation>Sicherungsdatei wird geschrieben…</translation>
    </message>
    <message>
        <source>Counting the rows of every table…</source>
        <translation>Zeilen jeder Tabelle werden gezählt…</translation>
    </message>
    <message>
        <source>Taking the audit anchor (the chains&apos; heads)…</source>
        <translation>Prüfanker wird erstellt (die Kettenköpfe)…</translation>
    </message>
    <message>
        <source>Checking the backup file…</source>
        <translation>Sicherungsdatei wird geprüft…</translation>
    </message>
    <message>
        <source>Bringing the restored database to this desk&apos;s schema…</source>
        <translation>Wiederhergestellte Datenbank wird auf das Schema dieses Desks gebracht…</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>Restoring the database…</source>
        <translation>Datenbank wird wiederhergestellt…</translation>
    </message>
    <message>
        <source>Verifying the restored copy (counts, audit anchor, chains)…</source>
        <translation>Wiederhergestellte Kopie wird geprüft (Zeilenzahlen, Prüfanker, Ketten)…</translation>
    </message>
    <message>
        <source>Creating and starting the new embedded database…</source>
        <translation>Neue eingebettete Datenbank wird angelegt und gestartet…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>In Arbeit…</translation>
    </message>
    <message>
        <source>The backup was canceled; no file was left behind.</source>
        <translation>Die Sicherung wurde abgebrochen; es ist keine Datei zurückgeblieben.</translation>
    </message>
    <message>
        <source>The restore was canceled.</source>
        <translation>Die Wiederherstellung wurde abgebrochen.</translation>
    </message>
    <message>
        <source>This file is not a usable Renewal Desk backup: %1.</source>
        <translation>Diese Datei ist keine verwendbare Renewal-Desk-Sicherung: %1.</translation>
    </message>
    <message>
        <source>The target database could not be reached or started: %1</source>
        <translation>Die Zieldatenbank war nicht erreichbar oder konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>The database could not be reached: %1</source>
        <translation>Die Datenbank war nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>The target database is not empty (it holds %1): nothing was changed. A restore never goes over data: choose an empty database or a new directory.</source>
        <translation>Die Zieldatenbank ist nicht leer (sie enthält %1): Es wurde nichts geändert. Eine Wiederherstellung überschreibt nie Daten: Wählen Sie eine leere Datenbank oder ein neues Verzeichnis.</translation>
    </message>
    <message>
        <source>The server lacks the desk&apos;s roles, and this login may not create them: %1</source>
        <translation>Dem Server fehlen die Rollen des Desks, und diese Anmeldung darf sie nicht anlegen: %1</translation>
    </message>
    <message>
        <source>Your database role may not read every table: a backup needs the database&apos;s owner (the role that ran the migrations). pg_dump said: %1</source>
        <translation>Ihre Datenbankrolle darf nicht jede Tabelle lesen: Eine Sicherung braucht den Eigentümer der Datenbank (die Rolle, die die Migrationen ausgeführt hat). pg_dump meldete: %1</translation>
    </message>
    <message>
        <source>pg_dump could not write the backup: %1</source>
        <translation>pg_dump konnte die Sicherung nicht schreiben: %1</translation>
    </message>
    <message>
        <source>pg_restore could not restore it: %1</source>
        <translation>pg_restore konnte sie nicht wiederherstellen: %1</translation>
    </message>
    <message>
        <source>The target database was refused: %1</source>
        <translation>Die Zieldatenbank wurde abgelehnt: %1</translation>
    </message>
    <message>
        <source>The database refused the backup: %1</source>
        <translation>Die Datenbank hat die Sicherung abgelehnt: %1</translation>
    </message>
    <message>
        <source>The backup file could not be written: %1 (%2).</source>
        <translation>Die Sicherungsdatei konnte nicht geschrieben werden: %1 (%2).</translation>
    </message>
    <message>
        <source>The file or directory could not be used: %1 (%2).</source>
        <translation>Die Datei oder das Verzeichnis konnte nicht verwendet werden: %1 (%2).</translation>
    </message>
    <message>
        <source>The backup failed.</source>
        <translation>Die Sicherung ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The restore failed.</source>
        <translation>Die Wiederherstellung ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The backup file could not be read.</source>
        <translation>Die Sicherungsdatei konnte nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>Details: %1</translation>
    </message>
    <message>
        <source>Unexpected error.</source>
        <translation>Unerwarteter Fehler.</translation>
    </message>
    <message>
        <source>Choose a directory for the new embedded database.</source>
        <translation>Wählen Sie ein Verzeichnis für die neue eingebettete Datenbank.</translation>
    </message>
    <message>
        <source>Give the directory&apos;s full path.</source>
        <translation>Geben Sie den vollständigen Pfad des Verzeichnisses an.</translation>
    </message>
    <message>
        <source>%1 is a file, not a directory.</source>
        <translation>%1 ist eine Datei, kein Verzeichnis.</translation>
    </message>
    <message>
        <source>%1 is not empty: choose a new or empty directory (a restore never goes over existing data).</source>
        <translation>%1 ist nicht leer: Wählen Sie ein neues oder leeres Verzeichnis (eine Wiederherstellung überschreibt nie vorhandene Daten).</translation>
    </message>
    <message>
        <source>Verified: counts match the backup, the audit anchor matches (%1 heads), %2 chains intact.</source>
        <translation>Geprüft: Die Zeilenzahlen stimmen mit der Sicherung überein, der Prüfanker stimmt (%1 Köpfe), %2 Ketten intakt.</translation>
    </message>
    <message>
        <source>NOT verified: the restored database differs from the backup.</source>
        <translation>NICHT geprüft: Die wiederhergestellte Datenbank weicht von der Sicherung ab.</translation>
    </message>
    <message>
        <source>%1: the backup holds %2, the restored database %3.</source>
        <translation>%1: Die Sicherung enthält %2, die wiederhergestellte Datenbank %3.</translation>
    </message>
    <message>
        <source>The audit anchor does not match: %1 of its %2 chain heads differ</source>
        <translation>Der Prüfanker stimmt nicht überein: %1 seiner %2 Kettenköpfe weichen ab</translation>
    </message>
    <message>
        <source>Comparing privileges and definitions with this desk&apos;s migrations…</source>
        <translation>Rechte und Definitionen werden mit den Migrationen dieses Desks verglichen…</translation>
    </message>
    <message>
        <source>Privileges, definitions and constraints are this desk&apos;s migrations&apos;.</source>
        <translation>Rechte, Definitionen und Regeln entsprechen den Migrationen dieses Desks.</translation>
    </message>
    <message>
        <source>Privileges, definitions and constraints were not compared: %1.</source>
        <translation>Rechte, Definitionen und Regeln wurden nicht verglichen: %1.</translation>
    </message>
    <message>
        <source>Privileges, definitions or constraints differ from this desk&apos;s migrations: %1 difference(s) (first: %2). Do not use this copy.</source>
        <translation>Rechte, Definitionen oder Regeln weichen von den Migrationen dieses Desks ab: %1 Abweichung(en) (erste: %2). Diese Kopie nicht verwenden.</translation>
    </message>
    <message>
        <source>the login may not create the scratch database the comparison needs (CREATEDB); restore as a login that may</source>
        <translation>die Anmeldung darf die für den Vergleich nötige Hilfsdatenbank nicht anlegen (CREATEDB); stellen Sie mit einer Anmeldung wieder her, die es darf</translation>
    </message>
    <message>
        <source>Verifying the audit chains in the snapshot…</source>
        <translation>Die Prüfketten im Snapshot werden geprüft…</translation>
    </message>
    <message>
        <source>Verified, but the audit chains are broken: the backup was taken with %1 break(s) in its %2 chains, and this copy has exactly those (first: %3). Counts match the backup, the audit anchor matches (%4 heads). Find out why the chains broke before relying on this copy.</source>
        <translation>Geprüft, aber die Prüfketten sind gebrochen: Die Sicherung wurde mit %1 Bruchstelle(n) in ihren %2 Ketten erstellt, und diese Kopie hat genau diese (erste: %3). Die Zählungen passen zur Sicherung, der Prüfanker passt (%4 Köpfe). Klären Sie, warum die Ketten gebrochen sind, bevor Sie sich auf diese Kopie verlassen.</translation>
    </message>
    <message>
        <source>Audit chains broken: %1 break(s) in %2 chains that the backup did not record</source>
        <translation>Prüfketten gebrochen: %1 Bruchstelle(n) in %2 Ketten, die die Sicherung nicht festgehalten hat</translation>
    </message>
    <message>
        <source>The backup was taken with %1 break(s) that this copy does not have as recorded (first: %2): the file was altered after it was written.</source>
        <translation>Die Sicherung wurde mit %1 Bruchstelle(n) erstellt, die diese Kopie nicht wie festgehalten hat (erste: %2): Die Datei wurde nach dem Schreiben verändert.</translation>
    </message>
</context>
<context>
    <name>rd::ui::BackupProgressPanel</name>
    <message>
        <source>%1 of about %2 audit rows</source>
        <translation>%1 von etwa %2 Prüfprotokollzeilen</translation>
    </message>
    <message>
        <source>%1 of about %2</source>
        <translation>%1 von etwa %2</translation>
    </message>
    <message>
        <source>Canceling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
</context>
<context>
    <name>rd::ui::BulkCaseDialog</name>
    <message>
        <source>Stop after this case</source>
        <translation>Nach diesem Fall anhalten</translation>
    </message>
    <message>
        <source>Cases already run keep their result; the rest are not touched.</source>
        <translation>Bereits bearbeitete Fälle behalten ihr Ergebnis; die übrigen bleiben unberührt.</translation>
    </message>
    <message>
        <source>%v of %m cases</source>
        <translation>%v von %m Fällen</translation>
    </message>
    <message>
        <source>each case through the renewal core on its own, one transaction a case: %1 of %2 done.</source>
        <translation>jeder Fall einzeln über den Verlängerungskern, eine Transaktion je Fall: %1 von %2 erledigt.</translation>
    </message>
    <message>
        <source>finished: %1 of %2 run.</source>
        <translation>abgeschlossen: %1 von %2 bearbeitet.</translation>
    </message>
</context>
<context>
    <name>rd::ui::BulkCaseRun</name>
    <message>
        <source>dismissed</source>
        <translation>verworfen</translation>
    </message>
    <message>
        <source>already recorded</source>
        <translation>bereits erfasst</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>angewendet</translation>
    </message>
    <message>
        <source>still refused</source>
        <translation>weiterhin abgelehnt</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
    <message>
        <source>cancelled: %1 of %2 cases not run</source>
        <translation>abgebrochen: %1 von %2 Fällen nicht bearbeitet</translation>
    </message>
    <message>
        <source>1 case needs a snapshot and is left out</source>
        <translation>1 Fall braucht einen Snapshot und wird ausgelassen</translation>
    </message>
    <message>
        <source>%1 cases need a snapshot and are left out</source>
        <translation>%1 Fälle brauchen einen Snapshot und werden ausgelassen</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseActions</name>
    <message>
        <source>no current period</source>
        <translation>kein aktueller Zeitraum</translation>
    </message>
    <message>
        <source>The provider&apos;s message does not say which period was paid, so the renewal core cannot apply it: attach a provider snapshot instead (Attach provider snapshot…).</source>
        <translation>Die Nachricht des Anbieters sagt nicht, welcher Zeitraum bezahlt wurde, daher kann der Verlängerungskern sie nicht anwenden: Hängen Sie stattdessen einen Anbieter-Snapshot an (Anbieter-Snapshot anhängen…).</translation>
    </message>
    <message>
        <source>Still rejected: %1. The case stays open.</source>
        <translation>Weiterhin abgelehnt: %1. Der Fall bleibt offen.</translation>
    </message>
    <message>
        <source>Applied: period now %1.</source>
        <translation>Angewendet: Zeitraum jetzt %1.</translation>
    </message>
    <message>
        <source>Already applied: the renewal was recorded before; period now %1.</source>
        <translation>Bereits angewendet: Die Verlängerung wurde schon früher erfasst; Zeitraum jetzt %1.</translation>
    </message>
    <message>
        <source>Case %1 resolved.</source>
        <translation>Fall %1 erledigt.</translation>
    </message>
    <message>
        <source>Could not re-apply: %1</source>
        <translation>Erneutes Anwenden nicht möglich: %1</translation>
    </message>
    <message>
        <source>Case %1 dismissed.</source>
        <translation>Fall %1 verworfen.</translation>
    </message>
    <message>
        <source>Could not dismiss: %1</source>
        <translation>Verwerfen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Could not claim: %1</source>
        <translation>Übernehmen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Case %1 was already assigned to you.</source>
        <translation>Fall %1 war Ihnen bereits zugewiesen.</translation>
    </message>
    <message>
        <source>Case %1 is assigned to you.</source>
        <translation>Fall %1 ist Ihnen zugewiesen.</translation>
    </message>
    <message>
        <source>Case %1 is assigned to you (taken over from %2).</source>
        <translation>Fall %1 ist Ihnen zugewiesen (übernommen von %2).</translation>
    </message>
    <message>
        <source>Could not release: %1</source>
        <translation>Freigeben nicht möglich: %1</translation>
    </message>
    <message>
        <source>Case %1 was not assigned to anyone.</source>
        <translation>Fall %1 war niemandem zugewiesen.</translation>
    </message>
    <message>
        <source>Case %1 is back in the queue (it was assigned to %2).</source>
        <translation>Fall %1 ist wieder in der Warteschlange (er war %2 zugewiesen).</translation>
    </message>
    <message>
        <source>Could not add the note: %1</source>
        <translation>Notiz konnte nicht hinzugefügt werden: %1</translation>
    </message>
    <message>
        <source>Note added to case %1.</source>
        <translation>Notiz zu Fall %1 hinzugefügt.</translation>
    </message>
    <message>
        <source>Could not reopen: %1</source>
        <translation>Wiedereröffnen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Case %1 is open again, back in the queue.</source>
        <translation>Fall %1 ist wieder offen und zurück in der Warteschlange.</translation>
    </message>
    <message>
        <source>Case %1 is open again, back in the queue (dismissed by %2).</source>
        <translation>Fall %1 ist wieder offen und zurück in der Warteschlange (verworfen von %2).</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>current period</source>
        <translation>aktueller Zeitraum</translation>
    </message>
    <message>
        <source>cancels at period end</source>
        <translation>kündigt zum Ende des Zeitraums</translation>
    </message>
    <message>
        <source>provider version</source>
        <translation>Anbieterversion</translation>
    </message>
    <message>
        <source>%1 was %2, now %3</source>
        <translation>%1 war %2, jetzt %3</translation>
    </message>
    <message>
        <source>Case %1 stays open: its renewal is still rejected (%2).</source>
        <translation>Fall %1 bleibt offen: Seine Verlängerung wird weiterhin abgelehnt (%2).</translation>
    </message>
    <message>
        <source>Case %1 resolved: its renewal was applied.</source>
        <translation>Fall %1 erledigt: Seine Verlängerung wurde angewendet.</translation>
    </message>
    <message>
        <source>Case %1 resolved: the snapshot recorded its renewal.</source>
        <translation>Fall %1 erledigt: Der Snapshot hat seine Verlängerung erfasst.</translation>
    </message>
    <message>
        <source>Case %1 resolved: its renewal is recorded.</source>
        <translation>Fall %1 erledigt: Seine Verlängerung ist erfasst.</translation>
    </message>
    <message>
        <source>The same snapshot was attached before: nothing changed.</source>
        <translation>Derselbe Snapshot wurde schon einmal angehängt: Es hat sich nichts geändert.</translation>
    </message>
    <message>
        <source>Snapshot attached: period now %1.</source>
        <translation>Snapshot angehängt: Zeitraum jetzt %1.</translation>
    </message>
    <message>
        <source>Changed: %1.</source>
        <translation>Geändert: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n other case(s) can now be re-applied.</source>
        <translation>
            <numerusform>%n weiterer Fall kann jetzt erneut angewendet werden.</numerusform>
            <numerusform>%n weitere Fälle können jetzt erneut angewendet werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>The snapshot is not valid: %1</source>
        <translation>Der Snapshot ist ungültig: %1</translation>
    </message>
    <message>
        <source>Could not attach the snapshot: %1</source>
        <translation>Der Snapshot konnte nicht angehängt werden: %1</translation>
    </message>
    <message>
        <source>Case %1 will be resolved: its renewal will be applied.</source>
        <translation>Fall %1 wird erledigt: Seine Verlängerung wird angewendet.</translation>
    </message>
    <message>
        <source>Case %1 will be resolved: the snapshot records its renewal.</source>
        <translation>Fall %1 wird erledigt: Der Snapshot erfasst seine Verlängerung.</translation>
    </message>
    <message>
        <source>Case %1 will be resolved: its renewal is recorded.</source>
        <translation>Fall %1 wird erledigt: Seine Verlängerung ist erfasst.</translation>
    </message>
    <message>
        <source>Case %1 stays open: its renewal would still be rejected (%2).</source>
        <translation>Fall %1 bleibt offen: Seine Verlängerung würde weiterhin abgelehnt (%2).</translation>
    </message>
    <message>
        <source>No case is affected.</source>
        <translation>Kein Fall ist betroffen.</translation>
    </message>
    <message>
        <source>Unknown case action.</source>
        <translation>Unbekannte Fallaktion.</translation>
    </message>
    <message>
        <source>A provider snapshot records renewals, never refunds or disputes: re-apply the case once its renewal is recorded, or dismiss it with a note.</source>
        <translation>Ein Anbieter-Snapshot erfasst Verlängerungen, nie Erstattungen oder Rückbuchungen: Wenden Sie den Fall erneut an, sobald seine Verlängerung erfasst ist, oder verwerfen Sie ihn mit einer Notiz.</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseDetailPanel</name>
    <message>
        <source>Open subscription</source>
        <translation>Abonnement öffnen</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>Freigeben</translation>
    </message>
    <message>
        <source>Add note…</source>
        <translation>Notiz hinzufügen…</translation>
    </message>
    <message>
        <source>Attach provider snapshot…</source>
        <translation>Snapshot anhängen…</translation>
    </message>
    <message>
        <source>Re-apply…</source>
        <translation>Erneut anwenden…</translation>
    </message>
    <message>
        <source>Dismiss…</source>
        <translation>Verwerfen…</translation>
    </message>
    <message>
        <source>Reopen…</source>
        <translation>Wiedereröffnen…</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Database role</source>
        <translation>Datenbankrolle</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>No case selected. Open cases appear here as renewals are rejected.</source>
        <translation>Kein Fall ausgewählt. Offene Fälle erscheinen hier, sobald Verlängerungen abgelehnt werden.</translation>
    </message>
    <message>
        <source>Case %1</source>
        <translation>Fall %1</translation>
    </message>
    <message>
        <source>seen %1×</source>
        <translation>%1× gesehen</translation>
    </message>
    <message>
        <source>%1 old</source>
        <translation>%1 alt</translation>
    </message>
    <message>
        <source>⚠ open longer than %1</source>
        <translation>⚠ länger offen als %1</translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation>nicht zugewiesen</translation>
    </message>
    <message>
        <source>assigned to &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>zugewiesen an &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>you (%1)</source>
        <translation>Sie (%1)</translation>
    </message>
    <message>
        <source>Next step: %1</source>
        <translation>Nächster Schritt: %1</translation>
    </message>
    <message>
        <source>Closed: %1. When it was open: %2</source>
        <translation>Geschlossen: %1. Als er offen war: %2</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>first delivered as %1, %2 ago; delivered %3 times, last as %4, %5 ago.</source>
        <translation>zuerst zugestellt als %1, %2 her; %3-mal zugestellt, zuletzt als %4, %5 her.</translation>
    </message>
    <message>
        <source>delivered once, as %1, %2 ago.</source>
        <translation>einmal zugestellt, als %1, %2 her.</translation>
    </message>
    <message>
        <source>Dismissed by mistake? Put the case back in the queue, open, with a note saying why; its history keeps the dismissal.</source>
        <translation>Versehentlich verworfen? Stellen Sie den Fall offen zurück in die Warteschlange, mit einer Notiz, warum; sein Verlauf behält das Verwerfen.</translation>
    </message>
    <message>
        <source>Take over…</source>
        <translation>Übernehmen…</translation>
    </message>
    <message>
        <source>Release…</source>
        <translation>Freigeben…</translation>
    </message>
    <message>
        <source>The case is assigned to you.</source>
        <translation>Der Fall ist Ihnen zugewiesen.</translation>
    </message>
    <message>
        <source>Assign the case to you (%1): the queue shows it as yours.</source>
        <translation>Den Fall Ihnen (%1) zuweisen: Die Warteschlange zeigt ihn als Ihren.</translation>
    </message>
    <message>
        <source>The case is claimed by %1: taking it over needs a note saying why.</source>
        <translation>Der Fall ist von %1 übernommen: Ihn zu übernehmen erfordert eine Notiz mit Begründung.</translation>
    </message>
    <message>
        <source>Nobody has claimed the case.</source>
        <translation>Niemand hat den Fall übernommen.</translation>
    </message>
    <message>
        <source>Give the case back to the queue.</source>
        <translation>Den Fall an die Warteschlange zurückgeben.</translation>
    </message>
    <message>
        <source>The case is claimed by %1: releasing it needs a note saying why.</source>
        <translation>Der Fall ist von %1 übernommen: Ihn freizugeben erfordert eine Notiz mit Begründung.</translation>
    </message>
    <message>
        <source>A note in the case&apos;s history (not an action): what you learned, for whoever works the case next.</source>
        <translation>Eine Notiz im Verlauf des Falls (keine Aktion): Was Sie herausgefunden haben, für alle, die den Fall als Nächste bearbeiten.</translation>
    </message>
    <message>
        <source>The provider&apos;s subscription %1 is not in the desk: import it, or attach a provider snapshot to create it.</source>
        <translation>Das Abonnement %1 des Anbieters ist nicht im Desk: Importieren Sie es oder hängen Sie einen Anbieter-Snapshot an, um es anzulegen.</translation>
    </message>
    <message>
        <source>found by a statement import, %1 ago (object %2).</source>
        <translation>von einem Kontoauszugsimport gefunden, %1 her (Objekt %2).</translation>
    </message>
    <message>
        <source>The database would not reopen this case: %1</source>
        <translation>Die Datenbank würde diesen Fall nicht wieder öffnen: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseDialogs</name>
    <message>
        <source>Re-apply</source>
        <translation>Erneut anwenden</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Attach provider snapshot</source>
        <translation>Anbieter-Snapshot anhängen</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>Freigeben</translation>
    </message>
    <message>
        <source>Note on</source>
        <translation>Notiz zu</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Wiedereröffnen</translation>
    </message>
    <message>
        <source>Note on case %1</source>
        <translation>Notiz zu Fall %1</translation>
    </message>
    <message>
        <source>Reopen case %1</source>
        <translation>Fall %1 wiedereröffnen</translation>
    </message>
    <message>
        <source>Take over case %1 from %2</source>
        <translation>Fall %1 von %2 übernehmen</translation>
    </message>
    <message>
        <source>Release %2&apos;s claim on case %1</source>
        <translation>Übernahme von Fall %1 durch %2 aufheben</translation>
    </message>
    <message>
        <source>What you learned (&quot;customer says the card was charged twice&quot;)</source>
        <translation>Was Sie herausgefunden haben („Kunde sagt, die Karte wurde doppelt belastet“)</translation>
    </message>
    <message>
        <source>Why it is open again (&quot;dismissed by mistake: case 12 was meant&quot;): the case&apos;s history keeps it</source>
        <translation>Warum er wieder offen ist („versehentlich verworfen: gemeint war Fall 12“): Der Verlauf des Falls bewahrt es</translation>
    </message>
    <message>
        <source>Why (&quot;%1 is out this week&quot;): the case&apos;s history keeps it</source>
        <translation>Warum („%1 ist diese Woche abwesend“): Der Verlauf des Falls bewahrt es</translation>
    </message>
    <message>
        <source>Dismissing closes this case, without recording its renewal:</source>
        <translation>Verwerfen schließt diesen Fall, ohne seine Verlängerung zu erfassen:</translation>
    </message>
    <message>
        <source>Dismissing closes these %1 cases, without recording their renewals:</source>
        <translation>Verwerfen schließt diese %1 Fälle, ohne ihre Verlängerungen zu erfassen:</translation>
    </message>
    <message>
        <source>Re-applies this case through the renewal core:</source>
        <translation>Wendet diesen Fall erneut über den Verlängerungskern an:</translation>
    </message>
    <message>
        <source>Re-applies these %1 cases through the renewal core, one at a time:</source>
        <translation>Wendet diese %1 Fälle nacheinander erneut über den Verlängerungskern an:</translation>
    </message>
    <message>
        <source>Dismiss %1</source>
        <translation>%1 verwerfen</translation>
    </message>
    <message>
        <source>Re-apply %1</source>
        <translation>%1 erneut anwenden</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseEvidence</name>
    <message>
        <source>incoming event</source>
        <translation>eingehendes Ereignis</translation>
    </message>
    <message>
        <source>stored billing period</source>
        <translation>gespeicherter Zeitraum</translation>
    </message>
    <message>
        <source>subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>this subscription</source>
        <translation>dieses Abonnement</translation>
    </message>
    <message>
        <source>another subscription</source>
        <translation>ein anderes Abonnement</translation>
    </message>
    <message>
        <source>renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>period start</source>
        <translation>Beginn des Zeitraums</translation>
    </message>
    <message>
        <source>period end</source>
        <translation>Ende des Zeitraums</translation>
    </message>
    <message>
        <source>amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>paid at</source>
        <translation>bezahlt am</translation>
    </message>
    <message>
        <source>provider event</source>
        <translation>Anbieterereignis</translation>
    </message>
    <message>
        <source>The stored renewal and the incoming event now agree: re-applying should find it already applied.</source>
        <translation>Die gespeicherte Verlängerung und das eingehende Ereignis stimmen jetzt überein: Erneutes Anwenden sollte sie als bereits angewendet finden.</translation>
    </message>
    <message>
        <source>The provider sent renewal key %1 again with a different %2. The stored billing period is kept until someone decides.</source>
        <translation>Der Anbieter hat den Verlängerungsschlüssel %1 erneut mit abweichendem Wert für %2 gesendet. Der gespeicherte Abrechnungszeitraum bleibt, bis jemand entscheidet.</translation>
    </message>
    <message>
        <source>current period</source>
        <translation>aktueller Zeitraum</translation>
    </message>
    <message>
        <source>no subscription in the desk</source>
        <translation>kein Abonnement im Desk</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>cancels at period end</source>
        <translation>kündigt zum Ende des Zeitraums</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>continuity</source>
        <translation>Anschluss</translation>
    </message>
    <message>
        <source>ends %1</source>
        <translation>endet %1</translation>
    </message>
    <message>
        <source>starts %1</source>
        <translation>beginnt %1</translation>
    </message>
    <message>
        <source>The renewal does not continue the current period: %1 between the current period&apos;s end (%2) and the renewal&apos;s start (%3).</source>
        <translation>Die Verlängerung schließt nicht an den aktuellen Zeitraum an: %1 zwischen dem Ende des aktuellen Zeitraums (%2) und dem Beginn der Verlängerung (%3).</translation>
    </message>
    <message>
        <source>The subscription has no current period to renew.</source>
        <translation>Das Abonnement hat keinen aktuellen Zeitraum, der verlängert werden könnte.</translation>
    </message>
    <message>
        <source>Only an active subscription renews; this one is %1.</source>
        <translation>Nur ein aktives Abonnement wird verlängert; dieses ist %1.</translation>
    </message>
    <message>
        <source>The provider renewed a subscription that the desk holds as set to cancel at the end of its period.</source>
        <translation>Der Anbieter hat ein Abonnement verlängert, das im Desk zur Kündigung zum Ende seines Zeitraums vorgemerkt ist.</translation>
    </message>
    <message>
        <source>No subscription %1 of %2 is known to the desk, so there is nothing to renew.</source>
        <translation>Dem Desk ist kein Abonnement %1 von %2 bekannt, also gibt es nichts zu verlängern.</translation>
    </message>
    <message>
        <source>The provider&apos;s message does not say which period was paid, so the desk cannot renew from it.</source>
        <translation>Die Nachricht des Anbieters sagt nicht, welcher Zeitraum bezahlt wurde, daher kann der Desk daraus nicht verlängern.</translation>
    </message>
    <message>
        <source>The provider sent a period that ends before it starts (%1 → %2), so nothing was recorded.</source>
        <translation>Der Anbieter hat einen Zeitraum gesendet, der endet, bevor er beginnt (%1 → %2), daher wurde nichts erfasst.</translation>
    </message>
    <message>
        <source>A provider statement lists this renewal with another amount, currency, period or subscription than the one recorded.</source>
        <translation>Eine Abrechnung des Anbieters führt diese Verlängerung mit anderem Betrag, anderer Währung, anderem Zeitraum oder Abonnement als dem erfassten.</translation>
    </message>
    <message>
        <source>The renewal is recorded here and paid on a day a provider statement covers, but the statement does not list it.</source>
        <translation>Die Verlängerung ist hier erfasst und an einem Tag bezahlt, den eine Abrechnung des Anbieters abdeckt, aber die Abrechnung führt sie nicht auf.</translation>
    </message>
    <message>
        <source>blocks the renewal</source>
        <translation>blockiert die Verlängerung</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>weicht ab</translation>
    </message>
    <message>
        <source>Usually wait: when the missing renewal arrives the core applies this one too and closes the case by itself. If the provider&apos;s periods differ from the desk&apos;s, attach a provider snapshot.</source>
        <translation>Meist abwarten: Trifft die fehlende Verlängerung ein, wendet der Verlängerungskern auch diese an und schließt den Fall selbst. Weichen die Zeiträume des Anbieters von denen des Desks ab, hängen Sie einen Anbieter-Snapshot an.</translation>
    </message>
    <message>
        <source>Check the invoice at the provider: if the stored renewal is right, dismiss with a note; if the provider corrected the invoice, attach a provider snapshot.</source>
        <translation>Prüfen Sie die Rechnung beim Anbieter: Ist die gespeicherte Verlängerung richtig, verwerfen Sie den Fall mit einer Notiz; hat der Anbieter die Rechnung korrigiert, hängen Sie einen Anbieter-Snapshot an.</translation>
    </message>
    <message>
        <source>Ask the provider whether the cancellation was withdrawn: attach a provider snapshot of the subscription as it shows it, then re-apply; if it still cancels, refund and dismiss with a note.</source>
        <translation>Fragen Sie beim Anbieter nach, ob die Kündigung zurückgenommen wurde: Hängen Sie einen Anbieter-Snapshot des Abonnements an, wie der Anbieter es zeigt, und wählen Sie dann „Erneut anwenden“; bleibt es bei der Kündigung, erstatten Sie den Betrag und verwerfen den Fall mit einer Notiz.</translation>
    </message>
    <message>
        <source>Attach a provider snapshot that brings the subscription&apos;s status up to date, then re-apply.</source>
        <translation>Hängen Sie einen Anbieter-Snapshot an, der den Status des Abonnements aktualisiert, und wählen Sie dann „Erneut anwenden“.</translation>
    </message>
    <message>
        <source>Import the subscription, or attach a provider snapshot of it: that creates the subscription and records its latest renewal. Then re-apply if the case stays open.</source>
        <translation>Importieren Sie das Abonnement oder hängen Sie einen Anbieter-Snapshot davon an: Das legt das Abonnement an und erfasst seine letzte Verlängerung. Bleibt der Fall danach offen, wählen Sie „Erneut anwenden“.</translation>
    </message>
    <message>
        <source>Attach a provider snapshot with the subscription&apos;s current period, then re-apply.</source>
        <translation>Hängen Sie einen Anbieter-Snapshot mit dem aktuellen Abrechnungszeitraum des Abonnements an und wählen Sie dann „Erneut anwenden“.</translation>
    </message>
    <message>
        <source>Check the invoice at the provider: attach a provider snapshot with the correct period, or dismiss with a note if the provider confirms it was sent in error.</source>
        <translation>Prüfen Sie die Rechnung beim Anbieter: Hängen Sie einen Anbieter-Snapshot mit dem richtigen Zeitraum an, oder verwerfen Sie den Fall mit einer Notiz, wenn der Anbieter bestätigt, dass die Rechnung irrtümlich gesendet wurde.</translation>
    </message>
    <message>
        <source>Look the subscription up in the provider&apos;s dashboard or API and attach a provider snapshot with what it shows: the renewal is then judged again against it. Re-apply cannot help: the message does not say which period was paid.</source>
        <translation>Schlagen Sie das Abonnement im Dashboard oder in der API des Anbieters nach und hängen Sie einen Anbieter-Snapshot mit dem an, was dort steht: Die Verlängerung wird dann erneut daran geprüft. „Erneut anwenden“ hilft nicht: Die Nachricht sagt nicht, welcher Zeitraum bezahlt wurde.</translation>
    </message>
    <message>
        <source>Look at the provider: a refund or a corrected invoice is a note and a dismissal; a wrong recording is a provider snapshot with the provider&apos;s state.</source>
        <translation>Sehen Sie beim Anbieter nach: Eine Erstattung oder eine korrigierte Rechnung verwerfen Sie mit einer Notiz; eine falsche Erfassung korrigiert ein Anbieter-Snapshot mit dem Stand des Anbieters.</translation>
    </message>
    <message>
        <source>Find out why the statement lacks it (refunded, another account, test mode, a wrong filter) and dismiss with a note saying what it was.</source>
        <translation>Klären Sie, warum die Verlängerung in der Abrechnung fehlt (erstattet, anderes Konto, Testmodus, falscher Filter), und verwerfen Sie den Fall mit einer Notiz, die den Grund nennt.</translation>
    </message>
    <message>
        <source>Open the object in the provider&apos;s dashboard. If it is a renewal, see that it is recorded (its delivery, or a provider snapshot of its subscription), then dismiss with a note naming it; if it is not, dismiss with a note saying what it was.</source>
        <translation>Öffnen Sie das Objekt im Dashboard des Anbieters. Ist es eine Verlängerung, sorgen Sie dafür, dass sie erfasst ist (ihre Zustellung oder ein Anbieter-Snapshot ihres Abonnements), und verwerfen Sie den Fall dann mit einer Notiz, die sie nennt; ist es keine, verwerfen Sie den Fall mit einer Notiz, die sagt, was es war.</translation>
    </message>
    <message>
        <source>statement object</source>
        <translation>Objekt der Abrechnung</translation>
    </message>
    <message>
        <source>nothing recorded under its id</source>
        <translation>unter seiner ID nichts erfasst</translation>
    </message>
    <message>
        <source>recorded under its id</source>
        <translation>unter seiner ID erfasst</translation>
    </message>
    <message>
        <source>object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>%1, object %2</source>
        <translation>%1, Objekt %2</translation>
    </message>
    <message>
        <source>where</source>
        <translation>Stelle</translation>
    </message>
    <message>
        <source>problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>A provider statement lists object %1, which the desk could not read: %2</source>
        <translation>Eine Abrechnung des Anbieters listet das Objekt %1, das der Desk nicht lesen konnte: %2</translation>
    </message>
    <message>
        <source>Usually wait: when the renewal it pays back is recorded, the movement is recorded with it and the case closes by itself. If that renewal is recorded and the case is still open, re-apply it; if the renewal never reaches the desk, or the provider names it only by a payment the desk does not know, find it at the provider and dismiss with a note naming it.</source>
        <translation>Meist abwarten: Wird die Verlängerung erfasst, die sie zurückzahlt, wird die Bewegung mit ihr erfasst und der Fall schließt sich selbst. Ist diese Verlängerung erfasst und der Fall noch offen, wenden Sie ihn erneut an; erreicht die Verlängerung den Desk nie oder nennt der Anbieter sie nur über eine Zahlung, die der Desk nicht kennt, suchen Sie sie beim Anbieter und verwerfen Sie den Fall mit einer Notiz, die sie nennt.</translation>
    </message>
    <message>
        <source>Check the renewal and its refunds and disputes at the provider: the desk never records more money back than was paid. If a recorded movement is wrong, or the provider paid back more than the renewal, dismiss with a note saying what it shows.</source>
        <translation>Prüfen Sie die Verlängerung, ihre Erstattungen und Rückbuchungen beim Anbieter: Der Desk erfasst nie mehr Rückzahlung, als bezahlt wurde. Ist eine erfasste Bewegung falsch oder hat der Anbieter mehr zurückgezahlt als die Verlängerung, verwerfen Sie den Fall mit einer Notiz, die sagt, was er zeigt.</translation>
    </message>
    <message>
        <source>The provider sent a refund or dispute already recorded with another amount, currency or renewal, or a reversal of nothing recorded. The recorded movement is kept: check it at the provider and dismiss with a note saying what it shows.</source>
        <translation>Der Anbieter hat eine bereits erfasste Erstattung oder Rückbuchung mit anderem Betrag, anderer Währung oder Verlängerung gesendet, oder die Umkehr von etwas nie Erfasstem. Die erfasste Bewegung bleibt: Prüfen Sie sie beim Anbieter und verwerfen Sie den Fall mit einer Notiz, die sagt, was er zeigt.</translation>
    </message>
    <message>
        <source>money back reported</source>
        <translation>gemeldete Rückzahlung</translation>
    </message>
    <message>
        <source>no recorded renewal names it</source>
        <translation>keine erfasste Verlängerung passt</translation>
    </message>
    <message>
        <source>the renewal it pays back</source>
        <translation>die zurückgezahlte Verlängerung</translation>
    </message>
    <message>
        <source>amount paid</source>
        <translation>gezahlter Betrag</translation>
    </message>
    <message>
        <source>money back so far</source>
        <translation>bisher zurückgezahlt</translation>
    </message>
    <message>
        <source>recorded movement</source>
        <translation>erfasste Bewegung</translation>
    </message>
    <message>
        <source>names the renewal by</source>
        <translation>nennt die Verlängerung über</translation>
    </message>
    <message>
        <source>Money back %1 names a renewal the desk has not recorded (yet).</source>
        <translation>Die Rückzahlung %1 nennt eine Verlängerung, die der Desk (noch) nicht erfasst hat.</translation>
    </message>
    <message>
        <source>Money back %1 would take more back than the renewal paid.</source>
        <translation>Die Rückzahlung %1 nähme mehr zurück, als die Verlängerung bezahlt hat.</translation>
    </message>
    <message>
        <source>Money back %1 differs from what is recorded under its id.</source>
        <translation>Die Rückzahlung %1 weicht von dem ab, was unter ihrer ID erfasst ist.</translation>
    </message>
    <message>
        <source>no subscription in the desk when the case opened (it is now)</source>
        <translation>kein Abonnement im Desk, als der Fall eröffnet wurde (jetzt schon)</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseFilterBar</name>
    <message>
        <source>Any age</source>
        <translation>Jedes Alter</translation>
    </message>
    <message>
        <source>Older than 1 h</source>
        <translation>Älter als 1 h</translation>
    </message>
    <message>
        <source>Older than 1 day</source>
        <translation>Älter als 1 Tag</translation>
    </message>
    <message>
        <source>Older than 1 week</source>
        <translation>Älter als 1 Woche</translation>
    </message>
    <message>
        <source>Newer than 1 h</source>
        <translation>Neuer als 1 h</translation>
    </message>
    <message>
        <source>Newer than 1 day</source>
        <translation>Neuer als 1 Tag</translation>
    </message>
    <message>
        <source>Open cases</source>
        <translation>Offene Fälle</translation>
    </message>
    <message>
        <source>Healed automatically</source>
        <translation>Automatisch behoben</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Dismissed</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <source>All cases</source>
        <translation>Alle Fälle</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Last seen, newest first</source>
        <translation>Zuletzt gesehen, neueste zuerst</translation>
    </message>
    <message>
        <source>Last seen, oldest first</source>
        <translation>Zuletzt gesehen, älteste zuerst</translation>
    </message>
    <message>
        <source>Age, oldest first</source>
        <translation>Alter, älteste zuerst</translation>
    </message>
    <message>
        <source>Age, newest first</source>
        <translation>Alter, neueste zuerst</translation>
    </message>
    <message>
        <source>Sort:</source>
        <translation>Sortierung:</translation>
    </message>
    <message>
        <source>Find subscription id…  (Ctrl+F)</source>
        <translation>Abonnement-ID suchen…  (Strg+F)</translation>
    </message>
    <message>
        <source>Lists the cases whose subscription id contains what you type or paste. Return opens the first match.</source>
        <translation>Listet die Fälle, deren Abonnement-ID enthält, was Sie eingeben oder einfügen. Eingabe öffnet den ersten Treffer.</translation>
    </message>
    <message>
        <source>Everyone&apos;s</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Meine</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Nicht zugewiesen</translation>
    </message>
    <message>
        <source>Any reason</source>
        <translation>Beliebiger Grund</translation>
    </message>
    <message>
        <source>Open cases older than this are marked ⚠ in the queue (a preference of this desk, kept between sessions).</source>
        <translation>Offene Fälle, die älter sind, werden in der Warteschlange mit ⚠ markiert (eine Einstellung dieses Desks, die zwischen Sitzungen erhalten bleibt).</translation>
    </message>
    <message>
        <source>Assigned:</source>
        <translation>Zugewiesen:</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>Grund:</translation>
    </message>
    <message>
        <source>Age:</source>
        <translation>Alter:</translation>
    </message>
    <message>
        <source>Only the cases of this UTC day. Click to show every day.</source>
        <translation>Nur die Fälle dieses UTC-Tages. Klicken, um alle Tage anzuzeigen.</translation>
    </message>
    <message>
        <source>Mark older than:</source>
        <translation>Markieren ab:</translation>
    </message>
    <message>
        <source>Closed on %1 (UTC)</source>
        <translation>Geschlossen am %1 (UTC)</translation>
    </message>
    <message>
        <source>Opened on %1 (UTC)</source>
        <translation>Eröffnet am %1 (UTC)</translation>
    </message>
    <message>
        <source>%1 – %2 old</source>
        <translation>%1 – %2 alt</translation>
    </message>
    <message>
        <source>Older than %1</source>
        <translation>Älter als %1</translation>
    </message>
    <message>
        <source>Newer than %1</source>
        <translation>Neuer als %1</translation>
    </message>
    <message>
        <source>%1 (%2 open)</source>
        <translation>%1 (%2 offen)</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseHistory</name>
    <message>
        <source>automatic (renewal core)</source>
        <translation>automatisch (Verlängerungskern)</translation>
    </message>
    <message>
        <source>renewalctl apply</source>
        <translation>renewalctl apply</translation>
    </message>
    <message>
        <source>statement import</source>
        <translation>Abrechnungsimport</translation>
    </message>
    <message>
        <source>webhook delivery</source>
        <translation>Webhook-Zustellung</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Bearbeiter</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <source>claimed, taken over from %1</source>
        <translation>übernommen von %1</translation>
    </message>
    <message>
        <source>released</source>
        <translation>freigegeben</translation>
    </message>
    <message>
        <source>released %1&apos;s claim</source>
        <translation>Übernahme durch %1 aufgehoben</translation>
    </message>
    <message>
        <source>note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>renewal rejected</source>
        <translation>Verlängerung abgelehnt</translation>
    </message>
    <message>
        <source>delivered again</source>
        <translation>erneut zugestellt</translation>
    </message>
    <message>
        <source>re-applied automatically</source>
        <translation>automatisch erneut angewendet</translation>
    </message>
    <message>
        <source>re-applied</source>
        <translation>erneut angewendet</translation>
    </message>
    <message>
        <source>re-applied after snapshot %1</source>
        <translation>nach Snapshot %1 erneut angewendet</translation>
    </message>
    <message>
        <source>provider snapshot attached</source>
        <translation>Anbieter-Snapshot angehängt</translation>
    </message>
    <message>
        <source>provider snapshot %1 attached</source>
        <translation>Anbieter-Snapshot %1 angehängt</translation>
    </message>
    <message>
        <source>dismissed</source>
        <translation>verworfen</translation>
    </message>
    <message>
        <source>reopened</source>
        <translation>wiedereröffnet</translation>
    </message>
    <message>
        <source>assigned to %1</source>
        <translation>zugewiesen an %1</translation>
    </message>
    <message>
        <source>back in the queue, unassigned</source>
        <translation>zurück in der Warteschlange, nicht zugewiesen</translation>
    </message>
    <message>
        <source>noted (no action)</source>
        <translation>Notiz (keine Aktion)</translation>
    </message>
    <message>
        <source>case opened: %1</source>
        <translation>Fall eröffnet: %1</translation>
    </message>
    <message>
        <source>still open</source>
        <translation>weiterhin offen</translation>
    </message>
    <message>
        <source>still open: %1</source>
        <translation>weiterhin offen: %1</translation>
    </message>
    <message>
        <source>renewal applied: case resolved</source>
        <translation>Verlängerung angewendet: Fall erledigt</translation>
    </message>
    <message>
        <source>renewal recorded with the snapshot: case resolved</source>
        <translation>Verlängerung mit dem Snapshot erfasst: Fall erledigt</translation>
    </message>
    <message>
        <source>renewal already recorded: case resolved</source>
        <translation>Verlängerung bereits erfasst: Fall erledigt</translation>
    </message>
    <message>
        <source>still rejected: %1</source>
        <translation>weiterhin abgelehnt: %1</translation>
    </message>
    <message>
        <source>still rejected: %1; %2</source>
        <translation>weiterhin abgelehnt: %1; %2</translation>
    </message>
    <message>
        <source>subscription brought to the snapshot</source>
        <translation>Abonnement auf den Stand des Snapshots gebracht</translation>
    </message>
    <message>
        <source>the same snapshot was attached before: nothing changed</source>
        <translation>derselbe Snapshot wurde schon einmal angehängt: nichts geändert</translation>
    </message>
    <message>
        <source>subscription created from the snapshot</source>
        <translation>Abonnement aus dem Snapshot angelegt</translation>
    </message>
    <message>
        <source>case dismissed</source>
        <translation>Fall verworfen</translation>
    </message>
    <message>
        <source>case open again</source>
        <translation>Fall wieder offen</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseQueue</name>
    <message>
        <source>1 case</source>
        <translation>1 Fall</translation>
    </message>
    <message>
        <source>%1 cases</source>
        <translation>%1 Fälle</translation>
    </message>
    <message>
        <source>1 week</source>
        <translation>1 Woche</translation>
    </message>
    <message>
        <source>%1 weeks</source>
        <translation>%1 Wochen</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseQueueView</name>
    <message>
        <source>Re-apply applicable now…</source>
        <translation>Jetzt Anwendbare erneut anwenden…</translation>
    </message>
    <message>
        <source>Re-apply selected…</source>
        <translation>Auswahl erneut anwenden…</translation>
    </message>
    <message>
        <source>Dismiss selected…</source>
        <translation>Auswahl verwerfen…</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Alter</translation>
    </message>
    <message>
        <source>Open for more than %1 (the queue&apos;s &quot;Mark older than&quot;).</source>
        <translation>Länger als %1 offen („Markieren ab Alter“ der Warteschlange).</translation>
    </message>
    <message>
        <source>Assigned to</source>
        <translation>Zugewiesen an</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 (you)</source>
        <translation>%1 (Sie)</translation>
    </message>
    <message>
        <source>Unassigned: nobody has claimed it.</source>
        <translation>Nicht zugewiesen: Niemand hat ihn übernommen.</translation>
    </message>
    <message>
        <source>Claimed by %1 %2 ago</source>
        <translation>Übernommen von %1 vor %2</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Seen</source>
        <translation>Gesehen</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>A bulk run is going: wait for it or stop it.</source>
        <translation>Ein Sammellauf ist im Gange: Warten Sie ihn ab oder halten Sie ihn an.</translation>
    </message>
    <message>
        <source>Re-apply every open case of a reason that the renewal core would apply now, after a preview of how many and which.</source>
        <translation>Jeden offenen Fall eines Grundes, den der Verlängerungskern jetzt anwenden würde, erneut anwenden – nach einer Vorschau, wie viele und welche.</translation>
    </message>
    <message>
        <source>Select open cases in the queue (Ctrl+click, Shift+click).</source>
        <translation>Wählen Sie offene Fälle in der Warteschlange aus (Strg+Klick, Umschalt+Klick).</translation>
    </message>
    <message>
        <source>Each selected open case through the core, one at a time, each result shown.</source>
        <translation>Jeden ausgewählten offenen Fall nacheinander über den Kern, jedes Ergebnis angezeigt.</translation>
    </message>
    <message>
        <source>%1 selected</source>
        <translation>%1 ausgewählt</translation>
    </message>
    <message>
        <source> (%1 open)</source>
        <translation> (%1 offen)</translation>
    </message>
</context>
<context>
    <name>rd::ui::CaseReasons</name>
    <message>
        <source>Provider confirmed</source>
        <translation>Vom Anbieter bestätigt</translation>
    </message>
    <message>
        <source>Missing renewal arrived</source>
        <translation>Fehlende Verlängerung eingetroffen</translation>
    </message>
    <message>
        <source>Customer request</source>
        <translation>Kundenwunsch</translation>
    </message>
    <message>
        <source>Duplicate charge</source>
        <translation>Doppelte Abbuchung</translation>
    </message>
    <message>
        <source>Data correction</source>
        <translation>Datenkorrektur</translation>
    </message>
    <message>
        <source>Test data</source>
        <translation>Testdaten</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
</context>
<context>
    <name>rd::ui::CasesPage</name>
    <message>
        <source>Dismiss %1</source>
        <translation>%1 verwerfen</translation>
    </message>
    <message>
        <source>Re-apply %1</source>
        <translation>%1 erneut anwenden</translation>
    </message>
    <message>
        <source>case %1 · %2/%3 · %4 · %5</source>
        <translation>Fall %1 · %2/%3 · %4 · %5</translation>
    </message>
    <message>
        <source>Read-only replica: this desk is connected to a hot standby, which cannot write. Connect to the primary (File › Connect…) to act on cases.</source>
        <translation>Schreibgeschütztes Replikat: Dieser Desk ist mit einem Hot Standby verbunden, der nicht schreiben kann. Verbinden Sie sich mit dem Primärserver (Datei › Verbinden…), um Fälle zu bearbeiten.</translation>
    </message>
    <message>
        <source>Your database role (%1) may only look: acting on cases needs renewal_operator.</source>
        <translation>Ihre Datenbankrolle (%1) darf nur lesen: Fälle zu bearbeiten erfordert renewal_operator.</translation>
    </message>
    <message>
        <source>Case %1 is no longer selected: nothing was attached.</source>
        <translation>Fall %1 ist nicht mehr ausgewählt: Es wurde nichts angehängt.</translation>
    </message>
    <message>
        <source>%1 case %2…</source>
        <translation>%1 Fall %2…</translation>
    </message>
    <message>
        <source>Show: %1</source>
        <translation>Anzeigen: %1</translation>
    </message>
    <message>
        <source>Assigned: %1</source>
        <translation>Zugewiesen: %1</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>Age: %1</source>
        <translation>Alter: %1</translation>
    </message>
    <message>
        <source>Id contains: %1</source>
        <translation>ID enthält: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::ChainBreakText</name>
    <message>
        <source>row content does not match its hash (altered)</source>
        <translation>der Inhalt der Zeile passt nicht zu ihrem Hash (verändert)</translation>
    </message>
    <message>
        <source>rows before this one are missing (removed)</source>
        <translation>Zeilen vor dieser fehlen (entfernt)</translation>
    </message>
    <message>
        <source>the previous row&apos;s hash does not match (altered or removed)</source>
        <translation>der Hash der vorigen Zeile passt nicht (verändert oder entfernt)</translation>
    </message>
    <message>
        <source>the row before this one is missing (removed)</source>
        <translation>die Zeile vor dieser fehlt (entfernt)</translation>
    </message>
    <message>
        <source>the anchored row is gone (removed since the anchor was exported)</source>
        <translation>die verankerte Zeile fehlt (entfernt, seit der Anker exportiert wurde)</translation>
    </message>
    <message>
        <source>the anchored row&apos;s hash changed (rewritten since the anchor was exported)</source>
        <translation>der Hash der verankerten Zeile hat sich geändert (neu geschrieben, seit der Anker exportiert wurde)</translation>
    </message>
    <message>
        <source>billing period of renewal %1 has no audit row recording it (added, or its record removed)</source>
        <translation>der Abrechnungszeitraum der Verlängerung %1 hat keine Prüfzeile, die ihn festhält (hinzugefügt, oder seine Prüfzeile entfernt)</translation>
    </message>
    <message>
        <source>billing period of renewal %1 holds %2 %3 for %4 to %5, its audit row recorded %6 %7 for %8 to %9 (altered)</source>
        <translation>der Abrechnungszeitraum der Verlängerung %1 enthält %2 %3 für %4 bis %5, seine Prüfzeile hielt %6 %7 für %8 bis %9 fest (verändert)</translation>
    </message>
    <message>
        <source>case %1</source>
        <translation>Fall %1</translation>
    </message>
    <message>
        <source>case %1 of subscription %2</source>
        <translation>Fall %1 des Abonnements %2</translation>
    </message>
    <message>
        <source>subscription (chain %1)</source>
        <translation>Abonnement (Kette %1)</translation>
    </message>
    <message>
        <source>subscription %1 (chain %2)</source>
        <translation>Abonnement %1 (Kette %2)</translation>
    </message>
    <message>
        <source>, position %1</source>
        <translation>, Position %1</translation>
    </message>
    <message>
        <source>, history row %1 at position %2</source>
        <translation>, Verlaufszeile %1 an Position %2</translation>
    </message>
    <message>
        <source>, audit row %1 at position %2</source>
        <translation>, Prüfzeile %1 an Position %2</translation>
    </message>
    <message>
        <source>%1: only in the restored database (&apos;%2&apos;)</source>
        <translation>%1: nur in der wiederhergestellten Datenbank („%2“)</translation>
    </message>
    <message>
        <source>%1: missing from the restored database (the migrations make &apos;%2&apos;)</source>
        <translation>%1: fehlt in der wiederhergestellten Datenbank (die Migrationen erzeugen „%2“)</translation>
    </message>
    <message>
        <source>%1: restored &apos;%2&apos;, the migrations make &apos;%3&apos;</source>
        <translation>%1: wiederhergestellt „%2“, die Migrationen erzeugen „%3“</translation>
    </message>
</context>
<context>
    <name>rd::ui::CloseMonthDialog</name>
    <message>
        <source>Close the month</source>
        <translation>Monat abschließen</translation>
    </message>
    <message>
        <source>Write the report…</source>
        <translation>Bericht schreiben…</translation>
    </message>
    <message>
        <source>Close a month</source>
        <translation>Einen Monat abschließen</translation>
    </message>
    <message>
        <source>A month is closed when a statement of the provider imported here covers all of it and every case its findings opened is resolved or dismissed. The close keeps both sides&apos; totals per currency, the findings and the audit anchor&apos;s digest, and is written once: it cannot be undone. Renewals recorded later for a closed month are marked &quot;after close&quot; in the Ledger.</source>
        <translation>Ein Monat ist abgeschlossen, wenn eine hier importierte Abrechnung des Anbieters ihn vollständig abdeckt und jeder Fall, den ihre Befunde eröffnet haben, erledigt oder verworfen ist. Der Abschluss bewahrt die Summen beider Seiten je Währung, die Befunde und die Prüfsumme des Prüfankers und wird einmalig geschrieben: Er kann nicht rückgängig gemacht werden. Später erfasste Verlängerungen für einen abgeschlossenen Monat werden im Hauptbuch als „nach Abschluss“ markiert.</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Month (UTC)</source>
        <translation>Monat (UTC)</translation>
    </message>
    <message>
        <source>Reading the providers…</source>
        <translation>Anbieter werden gelesen…</translation>
    </message>
    <message>
        <source>No provider is registered.</source>
        <translation>Es ist kein Anbieter registriert.</translation>
    </message>
    <message>
        <source>Asking the database whether it can be closed…</source>
        <translation>Die Datenbank wird gefragt, ob er abgeschlossen werden kann…</translation>
    </message>
    <message>
        <source>%1, %2 can be closed.</source>
        <translation>%1, %2 kann abgeschlossen werden.</translation>
    </message>
    <message>
        <source>Cannot be closed: %1.</source>
        <translation>Kann nicht abgeschlossen werden: %1.</translation>
    </message>
    <message>
        <source>Close %1, %2</source>
        <translation>%1, %2 abschließen</translation>
    </message>
    <message>
        <source>Closing…</source>
        <translation>Wird abgeschlossen…</translation>
    </message>
    <message>
        <source>Not closed: %1</source>
        <translation>Nicht abgeschlossen: %1</translation>
    </message>
    <message>
        <source>Closed by %1 at %2 (%3).</source>
        <translation>Abgeschlossen von %1 am %2 (%3).</translation>
    </message>
    <message>
        <source>This month is not closed: no report to write.</source>
        <translation>Dieser Monat ist nicht abgeschlossen: Es gibt keinen Bericht zu schreiben.</translation>
    </message>
    <message>
        <source>Save the close report</source>
        <translation>Abschlussbericht speichern</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Report written: %1 and %2.</source>
        <translation>Bericht geschrieben: %1 und %2.</translation>
    </message>
    <message>
        <source>The report could not be written: %1</source>
        <translation>Der Bericht konnte nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Open case %1</source>
        <translation>Fall %1 öffnen</translation>
    </message>
</context>
<context>
    <name>rd::ui::Columns</name>
    <message>
        <source> currency</source>
        <translation> Währung</translation>
    </message>
    <message>
        <source> minor units</source>
        <translation> Kleinsteinheiten</translation>
    </message>
    <message>
        <source> start</source>
        <translation> Beginn</translation>
    </message>
    <message>
        <source> end</source>
        <translation> Ende</translation>
    </message>
    <message>
        <source>%1 minor units of %2</source>
        <translation>%1 Kleinsteinheiten von %2</translation>
    </message>
</context>
<context>
    <name>rd::ui::ComparisonModel</name>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
</context>
<context>
    <name>rd::ui::ConnectionDialog</name>
    <message>
        <source>Use the desk&apos;s own embedded database</source>
        <translation>Die eigene eingebettete Datenbank des Desks verwenden</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Connect to a database</source>
        <translation>Mit einer Datenbank verbinden</translation>
    </message>
    <message>
        <source>postgresql://user@host:5432/dbname, or host=… dbname=…</source>
        <translation>postgresql://benutzer@host:5432/dbname oder host=… dbname=…</translation>
    </message>
    <message>
        <source>A connection string libpq reads (key=value pairs or a postgresql:// URI) fills the fields below. A password in it is not kept.</source>
        <translation>Eine Verbindungszeichenfolge, die libpq liest (key=value-Paare oder eine postgresql://-URI), füllt die Felder unten. Ein darin enthaltenes Passwort wird nicht gespeichert.</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>host name, or a socket directory</source>
        <translation>Hostname oder ein Socket-Verzeichnis</translation>
    </message>
    <message>
        <source>The saved connection could not be read: %1</source>
        <translation>Die gespeicherte Verbindung konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Passwords come from ~/.pgpass or PGPASSWORD; the desk never stores one.</source>
        <translation>Passwörter kommen aus ~/.pgpass oder PGPASSWORD; der Desk speichert nie eines.</translation>
    </message>
    <message>
        <source>Connection string</source>
        <translation>Verbindungszeichenfolge</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>SSL mode</source>
        <translation>SSL-Modus</translation>
    </message>
    <message>
        <source>Also kept as they are: %1.</source>
        <translation>Ebenfalls unverändert übernommen: %1.</translation>
    </message>
    <message>
        <source>This connection string cannot be read: %1</source>
        <translation>Diese Verbindungszeichenfolge kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The password in it is not kept: put it in ~/.pgpass.</source>
        <translation>Das darin enthaltene Passwort wird nicht gespeichert: Legen Sie es in ~/.pgpass ab.</translation>
    </message>
    <message>
        <source>Trying…</source>
        <translation>Verbindungsversuch…</translation>
    </message>
    <message>
        <source>Connected: PostgreSQL %1, database %2 as %3.</source>
        <translation>Verbunden: PostgreSQL %1, Datenbank %2 als %3.</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>Verbindung fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::ConnectionSettings</name>
    <message>
        <source>out of memory reading the connection string</source>
        <translation>Kein Speicher mehr beim Lesen der Verbindungszeichenfolge</translation>
    </message>
    <message>
        <source>out of memory connecting</source>
        <translation>Kein Speicher mehr beim Verbinden</translation>
    </message>
</context>
<context>
    <name>rd::ui::DatabasePool</name>
    <message>
        <source>The connection string is not valid: %1</source>
        <translation>Die Verbindungszeichenfolge ist ungültig: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::DeliveryView</name>
    <message>
        <source>← Back to the inbox</source>
        <translation>← Zurück zum Posteingang</translation>
    </message>
    <message>
        <source>Open case</source>
        <translation>Fall öffnen</translation>
    </message>
    <message>
        <source>Open subscription</source>
        <translation>Abonnement öffnen</translation>
    </message>
    <message>
        <source>Save body…</source>
        <translation>Inhalt speichern…</translation>
    </message>
    <message>
        <source>Mark reviewed…</source>
        <translation>Als geprüft markieren…</translation>
    </message>
    <message>
        <source>Re-run</source>
        <translation>Erneut ausführen</translation>
    </message>
    <message>
        <source>Back to the list (Esc)</source>
        <translation>Zurück zur Liste (Esc)</translation>
    </message>
    <message>
        <source>Writes the body byte for byte, as stored, to a file.</source>
        <translation>Schreibt den Inhalt Byte für Byte, wie gespeichert, in eine Datei.</translation>
    </message>
    <message>
        <source>The body&apos;s start as text, up to its first byte that is not valid UTF-8 text</source>
        <translation>Der Anfang des Inhalts als Text, bis zum ersten Byte, das kein gültiger UTF-8-Text ist</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Normalized event</source>
        <translation>Normalisiertes Ereignis</translation>
    </message>
    <message>
        <source>Delivery %1</source>
        <translation>Zustellung %1</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>wird geladen…</translation>
    </message>
    <message>
        <source>not in the inbox</source>
        <translation>nicht im Posteingang</translation>
    </message>
    <message>
        <source>Provider event %1</source>
        <translation>Anbieterereignis %1</translation>
    </message>
    <message>
        <source>received %1</source>
        <translation>empfangen %1</translation>
    </message>
    <message>
        <source>delivered %1 times, last %2</source>
        <translation>%1-mal zugestellt, zuletzt %2</translation>
    </message>
    <message>
        <source>delivered once</source>
        <translation>einmal zugestellt</translation>
    </message>
    <message>
        <source>not processed yet</source>
        <translation>noch nicht verarbeitet</translation>
    </message>
    <message>
        <source>processed %1</source>
        <translation>verarbeitet %1</translation>
    </message>
    <message>
        <source>body %1, SHA-256 %2</source>
        <translation>Inhalt %1, SHA-256 %2</translation>
    </message>
    <message>
        <source>Not processed yet</source>
        <translation>Noch nicht verarbeitet</translation>
    </message>
    <message>
        <source>reason: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Error: %1 (%2)</source>
        <translation>Fehler: %1 (%2)</translation>
    </message>
    <message>
        <source>Open case %1 (%2)</source>
        <translation>Fall %1 öffnen (%2)</translation>
    </message>
    <message>
        <source>This delivery opened no reconciliation case.</source>
        <translation>Diese Zustellung hat keinen Klärungsfall eröffnet.</translation>
    </message>
    <message>
        <source>Open subscription %1</source>
        <translation>Abonnement %1 öffnen</translation>
    </message>
    <message>
        <source>billing period %1</source>
        <translation>Abrechnungszeitraum %1</translation>
    </message>
    <message>
        <source>This delivery recorded no billing period; it names this subscription.</source>
        <translation>Diese Zustellung hat keinen Abrechnungszeitraum erfasst; sie nennt dieses Abonnement.</translation>
    </message>
    <message>
        <source>Billing period %1 recorded by this delivery.</source>
        <translation>Abrechnungszeitraum %1, erfasst durch diese Zustellung.</translation>
    </message>
    <message>
        <source>The payload names no subscription.</source>
        <translation>Die Nutzdaten nennen kein Abonnement.</translation>
    </message>
    <message>
        <source>The provider&apos;s subscription %1 is not in the desk.</source>
        <translation>Das Abonnement %1 des Anbieters ist nicht im Desk.</translation>
    </message>
    <message>
        <source>Body (removed)</source>
        <translation>Inhalt (entfernt)</translation>
    </message>
    <message>
        <source>The provider&apos;s payload is no longer kept: it held customers&apos; personal data.

Size:     %1
SHA-256:  %2

What the desk needs stays: the event id, the outcome, the case link and the normalized event (next tab).</source>
        <translation>Die Nutzdaten des Anbieters werden nicht mehr aufbewahrt: Sie enthielten personenbezogene Daten von Kunden.

Größe:    %1
SHA-256:  %2

Was der Desk braucht, bleibt: die Ereignis-ID, das Ergebnis, die Verknüpfung zum Fall und das normalisierte Ereignis (nächster Reiter).</translation>
    </message>
    <message>
        <source>Body (hidden)</source>
        <translation>Inhalt (verborgen)</translation>
    </message>
    <message>
        <source>Body hidden for your role: it holds customers&apos; personal data.</source>
        <translation>Inhalt für Ihre Rolle verborgen: Er enthält personenbezogene Daten von Kunden.</translation>
    </message>
    <message>
        <source>The provider&apos;s payload is not shown to your database role.

Size:     %1
SHA-256:  %2

Reading raw bodies needs renewal_payload_reader (operators have it).
Ask an administrator if your work needs it.</source>
        <translation>Die Nutzdaten des Anbieters werden Ihrer Datenbankrolle nicht angezeigt.

Größe:    %1
SHA-256:  %2

Rohinhalte zu lesen erfordert renewal_payload_reader (Bearbeiter haben diese Rolle).
Fragen Sie einen Administrator, wenn Ihre Arbeit es erfordert.</translation>
    </message>
    <message>
        <source>JSON, re-indented for reading (values exactly as sent).</source>
        <translation>JSON, zum Lesen neu eingerückt (Werte genau wie gesendet).</translation>
    </message>
    <message>
        <source>Body (JSON)</source>
        <translation>Inhalt (JSON)</translation>
    </message>
    <message>
        <source>Not JSON: shown byte for byte in hexadecimal.</source>
        <translation>Kein JSON: Byte für Byte hexadezimal angezeigt.</translation>
    </message>
    <message>
        <source>The first %1 of %2 are shown; Save body… writes all of it.</source>
        <translation>Die ersten %1 von %2 werden angezeigt; „Inhalt speichern…“ schreibt alles.</translation>
    </message>
    <message>
        <source>Body (hex)</source>
        <translation>Inhalt (hex)</translation>
    </message>
    <message>
        <source>It is all text: shown as text on the right.</source>
        <translation>Alles ist Text: rechts als Text angezeigt.</translation>
    </message>
    <message>
        <source>Its first %1 bytes are text, shown on the right; byte %2 is where it stops being readable.</source>
        <translation>Die ersten %1 Bytes sind Text, rechts angezeigt; bei Byte %2 endet die Lesbarkeit.</translation>
    </message>
    <message>
        <source>The body is empty.</source>
        <translation>Der Inhalt ist leer.</translation>
    </message>
    <message>
        <source>The inbox kept the first %1 of a %2 body (its SHA-256 is of all of it).</source>
        <translation>Der Posteingang hat die ersten %1 eines %2 großen Inhalts aufbewahrt (sein SHA-256 gilt für den ganzen Inhalt).</translation>
    </message>
    <message>
        <source>(no normalized event: the delivery is not processed yet)</source>
        <translation>(kein normalisiertes Ereignis: Die Zustellung ist noch nicht verarbeitet)</translation>
    </message>
    <message>
        <source>Reviewed by %1, %2: %3</source>
        <translation>Geprüft von %1, %2: %3</translation>
    </message>
    <message>
        <source>(its re-run is delivery %1)</source>
        <translation>(ihre erneute Ausführung ist Zustellung %1)</translation>
    </message>
    <message>
        <source>Not reviewed yet. An invalid delivery opens no case: mark it reviewed with a note, or re-run it after an adapter fix.</source>
        <translation>Noch nicht geprüft. Eine ungültige Zustellung eröffnet keinen Fall: Markieren Sie sie mit einer Notiz als geprüft oder führen Sie sie nach einer Korrektur des Adapters erneut aus.</translation>
    </message>
    <message>
        <source>Already reviewed</source>
        <translation>Bereits geprüft</translation>
    </message>
    <message>
        <source>Record, with a note, that nothing more is to be done about this delivery</source>
        <translation>Mit einer Notiz festhalten, dass zu dieser Zustellung nichts weiter zu tun ist</translation>
    </message>
    <message>
        <source>The body was removed: there is nothing to re-run</source>
        <translation>Der Inhalt wurde entfernt: Es gibt nichts erneut auszuführen</translation>
    </message>
    <message>
        <source>Your role may not read bodies: a re-run needs it</source>
        <translation>Ihre Rolle darf keine Inhalte lesen: Eine erneute Ausführung erfordert dies</translation>
    </message>
    <message>
        <source>The inbox kept only the start of this body: it cannot be re-run</source>
        <translation>Der Posteingang hat nur den Anfang dieses Inhalts aufbewahrt: Er kann nicht erneut ausgeführt werden</translation>
    </message>
    <message>
        <source>Run the stored body through this build&apos;s adapter and the ingest path again, as renewalctl replay --delivery %1 does (after an adapter fix)</source>
        <translation>Den gespeicherten Inhalt erneut durch den Adapter dieses Builds und den Aufnahmepfad laufen lassen, wie es renewalctl replay --delivery %1 tut (nach einer Korrektur des Adapters)</translation>
    </message>
    <message>
        <source>Save the delivery&apos;s body</source>
        <translation>Inhalt der Zustellung speichern</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Wrote the body of delivery %1 to %2</source>
        <translation>Inhalt von Zustellung %1 nach %2 geschrieben</translation>
    </message>
</context>
<context>
    <name>rd::ui::DialogKeys</name>
    <message>
        <source>Ctrl+Return</source>
        <translation>Strg+Eingabe</translation>
    </message>
</context>
<context>
    <name>rd::ui::ExtendGraceDialog</name>
    <message>
        <source>Extend grace of %1</source>
        <translation>Kulanzfrist von %1 verlängern</translation>
    </message>
    <message>
        <source>%1 is %2. Extending its grace keeps its access until the end of the day you choose; it ends by itself then, and a payment recorded before ends it at once. The note is kept with your name in its audit trail.</source>
        <translation>%1 ist %2. Eine verlängerte Kulanzfrist erhält den Zugang bis zum Ende des gewählten Tages; sie endet dann von selbst, und eine vorher erfasste Zahlung beendet sie sofort. Die Notiz wird mit Ihrem Namen im Prüfprotokoll aufbewahrt.</translation>
    </message>
    <message>
        <source>e.g. the customer&apos;s bank confirmed the new card for Monday</source>
        <translation>z. B. die Bank des Kunden hat die neue Karte für Montag bestätigt</translation>
    </message>
    <message>
        <source>Extend grace</source>
        <translation>Kulanzfrist verlängern</translation>
    </message>
    <message>
        <source>Last day of grace (UTC):</source>
        <translation>Letzter Tag der Kulanzfrist (UTC):</translation>
    </message>
    <message>
        <source>Note (required):</source>
        <translation>Notiz (erforderlich):</translation>
    </message>
    <message>
        <source>Access until the end of %1 (midnight UTC): %2 days from today, at most %3.</source>
        <translation>Zugang bis zum Ende von %1 (Mitternacht UTC): %2 Tage ab heute, höchstens %3.</translation>
    </message>
    <message>
        <source>Write a note to extend the grace.</source>
        <translation>Schreiben Sie eine Notiz, um die Kulanzfrist zu verlängern.</translation>
    </message>
</context>
<context>
    <name>rd::ui::FilterChips</name>
    <message>
        <source>Filtered by:</source>
        <translation>Gefiltert nach:</translation>
    </message>
    <message>
        <source>Clear all</source>
        <translation>Alle entfernen</translation>
    </message>
    <message>
        <source>Remove every filter shown here</source>
        <translation>Jeden hier gezeigten Filter entfernen</translation>
    </message>
    <message>
        <source>Remove this filter (%1)</source>
        <translation>Diesen Filter entfernen (%1)</translation>
    </message>
</context>
<context>
    <name>rd::ui::FindDialog</name>
    <message>
        <source>Find anything</source>
        <translation>Alles finden</translation>
    </message>
    <message>
        <source>Could not look it up: %1</source>
        <translation>Nachschlagen nicht möglich: %1</translation>
    </message>
    <message>
        <source>found by %1</source>
        <translation>gefunden über %1</translation>
    </message>
    <message>
        <source>Nothing has the id “%1”: no subscription, renewal, provider event, case or inbox delivery.</source>
        <translation>Nichts hat die ID „%1“: kein Abonnement, keine Verlängerung, kein Anbieterereignis, kein Fall und keine Zustellung im Posteingang.</translation>
    </message>
    <message>
        <source>Return opens it.</source>
        <translation>Eingabe öffnet es.</translation>
    </message>
    <message>
        <source>%1 things have the id “%2”: choose one (Up, Down, Return).</source>
        <translation>%1 Einträge haben die ID „%2“: Wählen Sie einen (Auf, Ab, Eingabe).</translation>
    </message>
    <message>
        <source>Subscription, invoice or transaction, provider event, case 42, delivery, customer e-mail…</source>
        <translation>Abonnement, Rechnung oder Transaktion, Anbieterereignis, Fall 42, Zustellung, E-Mail des Kunden…</translation>
    </message>
    <message>
        <source>Paste any id a customer or a provider gives you, or the customer&apos;s e-mail address; Return opens it.</source>
        <translation>Fügen Sie eine beliebige ID ein, die Ihnen ein Kunde oder Anbieter nennt, oder die E-Mail-Adresse des Kunden; Eingabe öffnet sie.</translation>
    </message>
    <message>
        <source>Nothing has the id or the customer&apos;s e-mail address “%1”: no delivery carried it (or it was erased), and no subscription, renewal, provider event, case or inbox delivery has it as its id.</source>
        <translation>Nichts hat die ID oder die E-Mail-Adresse des Kunden „%1“: Keine Zustellung enthielt sie (oder sie wurde gelöscht), und kein Abonnement, keine Verlängerung, kein Anbieterereignis, kein Fall und keine Zustellung hat sie als ID.</translation>
    </message>
    <message>
        <source>%1 things of the customer&apos;s e-mail address “%2”: choose one (Up, Down, Return).</source>
        <translation>%1 Treffer zur E-Mail-Adresse des Kunden „%2“: Wählen Sie einen (Auf, Ab, Eingabe).</translation>
    </message>
    <message>
        <source>The first %1 are listed.</source>
        <translation>Die ersten %1 sind aufgeführt.</translation>
    </message>
</context>
<context>
    <name>rd::ui::Finder</name>
    <message>
        <source>the provider&apos;s subscription id</source>
        <translation>die Abonnement-ID des Anbieters</translation>
    </message>
    <message>
        <source>Renewal Desk&apos;s id</source>
        <translation>die ID von Renewal Desk</translation>
    </message>
    <message>
        <source>the renewal key (invoice or transaction)</source>
        <translation>der Verlängerungsschlüssel (Rechnung oder Transaktion)</translation>
    </message>
    <message>
        <source>the provider event id</source>
        <translation>die Ereignis-ID des Anbieters</translation>
    </message>
    <message>
        <source>its number</source>
        <translation>seine Nummer</translation>
    </message>
    <message>
        <source>no current period</source>
        <translation>kein aktueller Zeitraum</translation>
    </message>
    <message>
        <source>Type or paste an id: a subscription, invoice or transaction, provider event, case number or inbox delivery.</source>
        <translation>Geben Sie eine ID ein oder fügen Sie sie ein: ein Abonnement, eine Rechnung oder Transaktion, ein Anbieterereignis, eine Fallnummer oder eine Zustellung im Posteingang.</translation>
    </message>
    <message>
        <source>That is %1 characters long; no id is longer than %2. Paste the id alone.</source>
        <translation>Das sind %1 Zeichen; keine ID ist länger als %2. Fügen Sie nur die ID ein.</translation>
    </message>
    <message>
        <source>An id has no line breaks, tabs or control characters: paste one id alone.</source>
        <translation>Eine ID enthält keine Zeilenumbrüche, Tabulatoren oder Steuerzeichen: Fügen Sie nur eine ID ein.</translation>
    </message>
    <message>
        <source>Subscription %1</source>
        <translation>Abonnement %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>Renewal %1</source>
        <translation>Verlängerung %1</translation>
    </message>
    <message>
        <source>%1 · subscription %2 · %3 · %4</source>
        <translation>%1 · Abonnement %2 · %3 · %4</translation>
    </message>
    <message>
        <source>Case %1 · %2</source>
        <translation>Fall %1 · %2</translation>
    </message>
    <message>
        <source>%1 · %2 · subscription %3 · renewal %4 · opened %5 ago</source>
        <translation>%1 · %2 · Abonnement %3 · Verlängerung %4 · eröffnet vor %5</translation>
    </message>
    <message>
        <source>Inbox delivery %1 · %2</source>
        <translation>Zustellung %1 im Posteingang · %2</translation>
    </message>
    <message>
        <source>not processed yet</source>
        <translation>noch nicht verarbeitet</translation>
    </message>
    <message>
        <source>%1 · event %2 · received %3</source>
        <translation>%1 · Ereignis %2 · empfangen %3</translation>
    </message>
    <message>
        <source>the invoice of a failed payment</source>
        <translation>die Rechnung einer fehlgeschlagenen Zahlung</translation>
    </message>
    <message>
        <source>Failed payment of %1</source>
        <translation>Fehlgeschlagene Zahlung von %1</translation>
    </message>
    <message>
        <source>%1 · subscription %2 · %3 attempts, the last failed %4</source>
        <translation>%1 · Abonnement %2 · %3 Versuche, der letzte fehlgeschlagen %4</translation>
    </message>
    <message>
        <source>the customer&apos;s e-mail address</source>
        <translation>die E-Mail-Adresse des Kunden</translation>
    </message>
</context>
<context>
    <name>rd::ui::Format</name>
    <message>
        <source>no current period</source>
        <translation>kein aktueller Zeitraum</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>%1 days %2 h</source>
        <translation>%1 Tage %2 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>less than a second</source>
        <translation>weniger als eine Sekunde</translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation>lückenlos</translation>
    </message>
    <message>
        <source>gap of %1</source>
        <translation>%1 Lücke</translation>
    </message>
    <message>
        <source>overlap of %1</source>
        <translation>%1 Überschneidung</translation>
    </message>
    <message>
        <source>Invalid provider billing period</source>
        <translation>Ungültiger Abrechnungszeitraum des Anbieters</translation>
    </message>
    <message>
        <source>Needs snapshot</source>
        <translation>Snapshot nötig</translation>
    </message>
    <message>
        <source>Provider renewal key payload conflict</source>
        <translation>Abweichende Daten zum Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Renewal conflicts with scheduled cancellation</source>
        <translation>Verlängerung trotz vorgemerkter Kündigung</translation>
    </message>
    <message>
        <source>Renewal not allowed for subscription status</source>
        <translation>Verlängerung im Abonnementstatus nicht zulässig</translation>
    </message>
    <message>
        <source>Renewal period is not contiguous</source>
        <translation>Verlängerungszeitraum schließt nicht an</translation>
    </message>
    <message>
        <source>Subscription has no current period</source>
        <translation>Abonnement ohne aktuellen Zeitraum</translation>
    </message>
    <message>
        <source>Subscription not found</source>
        <translation>Abonnement nicht gefunden</translation>
    </message>
    <message>
        <source>Applied</source>
        <translation>Angewendet</translation>
    </message>
    <message>
        <source>Already applied</source>
        <translation>Bereits angewendet</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplikat</translation>
    </message>
    <message>
        <source>Duplicate delivery</source>
        <translation>Doppelte Zustellung</translation>
    </message>
    <message>
        <source>Invalid</source>
        <translation>Ungültig</translation>
    </message>
    <message>
        <source>Not a renewal</source>
        <translation>Keine Verlängerung</translation>
    </message>
    <message>
        <source>Malformed</source>
        <translation>Fehlerhaft</translation>
    </message>
    <message>
        <source>Mismatch</source>
        <translation>Abweichung</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Fehlt</translation>
    </message>
    <message>
        <source>Stale timestamp</source>
        <translation>Veralteter Zeitstempel</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Unverändert</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Gültig</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Already yours</source>
        <translation>Bereits Ihrer</translation>
    </message>
    <message>
        <source>Attached</source>
        <translation>Angehängt</translation>
    </message>
    <message>
        <source>Claimed</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <source>Released</source>
        <translation>Freigegeben</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Angelegt</translation>
    </message>
    <message>
        <source>Not claimed</source>
        <translation>Nicht übernommen</translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation>Nicht eingerichtet</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Veröffentlicht</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Dismissed</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <source>Healed</source>
        <translation>Automatisch behoben</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Eröffnet</translation>
    </message>
    <message>
        <source>Noted</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Reopened</source>
        <translation>Wiedereröffnet</translation>
    </message>
    <message>
        <source>Reapply</source>
        <translation>Erneut anwenden</translation>
    </message>
    <message>
        <source>Reapplied</source>
        <translation>Erneut angewendet</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>Freigeben</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Wiedereröffnen</translation>
    </message>
    <message>
        <source>Snapshot attached</source>
        <translation>Snapshot angehängt</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Trialing</source>
        <translation>Testphase</translation>
    </message>
    <message>
        <source>Past due</source>
        <translation>Zahlung überfällig</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Canceled</source>
        <translation>Gekündigt</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Gekündigt</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>Unvollständig</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Abgeglichen</translation>
    </message>
    <message>
        <source>Backfilled</source>
        <translation>Nachgetragen</translation>
    </message>
    <message>
        <source>Unapplied</source>
        <translation>Nicht angewendet</translation>
    </message>
    <message>
        <source>Differing</source>
        <translation>Abweichend</translation>
    </message>
    <message>
        <source>Not in statement</source>
        <translation>Nicht in der Abrechnung</translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Bearbeiter</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Import</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Abrechnung</translation>
    </message>
    <message>
        <source>Cli</source>
        <translation>Kommandozeile</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>Subscription renewed</source>
        <translation>Abonnement verlängert</translation>
    </message>
    <message>
        <source>Subscription reconciled</source>
        <translation>Abonnement abgeglichen</translation>
    </message>
    <message>
        <source>Renewed</source>
        <translation>Verlängert</translation>
    </message>
    <message>
        <source>Reconciled</source>
        <translation>Abgeglichen</translation>
    </message>
    <message>
        <source>Created from snapshot</source>
        <translation>Aus Snapshot angelegt</translation>
    </message>
    <message>
        <source>Renewal</source>
        <translation>Verlängerung</translation>
    </message>
    <message>
        <source>First invoice</source>
        <translation>Erste Rechnung</translation>
    </message>
    <message>
        <source>Invalid payload</source>
        <translation>Ungültige Nutzdaten</translation>
    </message>
    <message>
        <source>Latest invoice</source>
        <translation>Letzte Rechnung</translation>
    </message>
    <message>
        <source>Manual invoice</source>
        <translation>Manuelle Rechnung</translation>
    </message>
    <message>
        <source>Missing period</source>
        <translation>Zeitraum fehlt</translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>Unlesbar</translation>
    </message>
    <message>
        <source>Statement disagrees</source>
        <translation>Abrechnung weicht ab</translation>
    </message>
    <message>
        <source>Statement object unreadable</source>
        <translation>Objekt der Abrechnung unlesbar</translation>
    </message>
    <message>
        <source>Refund without renewal</source>
        <translation>Erstattung ohne Verlängerung</translation>
    </message>
    <message>
        <source>Refund exceeds payment</source>
        <translation>Erstattung über der Zahlung</translation>
    </message>
    <message>
        <source>Money movement conflict</source>
        <translation>Widersprüchliche Rückzahlung</translation>
    </message>
    <message>
        <source>Recorded</source>
        <translation>Erfasst</translation>
    </message>
    <message>
        <source>Money movement recorded</source>
        <translation>Rückzahlung</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>Erstattung</translation>
    </message>
    <message>
        <source>Refund reversal</source>
        <translation>Erstattung storniert</translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation>Rückbuchung</translation>
    </message>
    <message>
        <source>Chargeback reversal</source>
        <translation>Rückbuchung zurückerstattet</translation>
    </message>
</context>
<context>
    <name>rd::ui::HelpWindow</name>
    <message>
        <source>Renewal Desk — User guide</source>
        <translation>Renewal Desk – Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;The user guide is not installed.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Renewal Desk looked for %1 in:&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;&lt;p&gt;It comes with the renewal-desk package (/usr/share/renewal-desk); in a build tree it is written beside the renewal-desk program. docs/user-guide.md in the source tree is the same text.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Das Benutzerhandbuch ist nicht installiert.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Renewal Desk hat %1 gesucht in:&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;&lt;p&gt;Es gehört zum Paket renewal-desk (/usr/share/renewal-desk); in einem Build-Verzeichnis wird es neben das Programm renewal-desk geschrieben. docs/user-guide.md in den Quellen ist derselbe Text (auf Englisch).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>“%1” is a document for administrators and contributors; it is in the docs folder of Renewal Desk&apos;s sources, not installed with the desk.</source>
        <translation>„%1“ ist ein Dokument für Administratoren und Mitwirkende; es liegt im Ordner docs der Quellen von Renewal Desk und wird nicht mit dem Desk installiert.</translation>
    </message>
</context>
<context>
    <name>rd::ui::InboxActions</name>
    <message>
        <source>Delivery %1 marked reviewed.</source>
        <translation>Zustellung %1 als geprüft markiert.</translation>
    </message>
    <message>
        <source>Could not mark delivery %1 reviewed: %2</source>
        <translation>Zustellung %1 konnte nicht als geprüft markiert werden: %2</translation>
    </message>
    <message>
        <source>Could not re-run delivery %1: %2</source>
        <translation>Zustellung %1 konnte nicht erneut ausgeführt werden: %2</translation>
    </message>
</context>
<context>
    <name>rd::ui::InboxDelivery</name>
    <message>
        <source>Body erased on %1 (request: %2)</source>
        <translation>Inhalt gelöscht am %1 (Antrag: %2)</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>Body removed on %1 (retention %2)</source>
        <translation>Inhalt entfernt am %1 (Aufbewahrung %2)</translation>
    </message>
    <message>
        <source>Body removed on %1 (older than %2)</source>
        <translation>Inhalt entfernt am %1 (älter als %2)</translation>
    </message>
</context>
<context>
    <name>rd::ui::InboxPage</name>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Not processed yet</source>
        <translation>Noch nicht verarbeitet</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Case %1</source>
        <translation>Fall %1</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>Body bytes</source>
        <translation>Inhaltsbytes</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>Provider event</source>
        <translation>Anbieterereignis</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>Alle Anbieter</translation>
    </message>
    <message>
        <source>Any outcome</source>
        <translation>Jedes Ergebnis</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>Rejected, needs snapshot or invalid: what someone has to look at</source>
        <translation>Abgelehnt, Snapshot nötig oder ungültig: was sich jemand ansehen muss</translation>
    </message>
    <message>
        <source>Invalid, to review</source>
        <translation>Ungültig, zu prüfen</translation>
    </message>
    <message>
        <source>Invalid deliveries nobody has marked reviewed or re-run</source>
        <translation>Ungültige Zustellungen, die niemand als geprüft markiert oder erneut ausgeführt hat</translation>
    </message>
    <message>
        <source>Received any time</source>
        <translation>Jederzeit empfangen</translation>
    </message>
    <message>
        <source>In the last hour</source>
        <translation>In der letzten Stunde</translation>
    </message>
    <message>
        <source>In the last 24 hours</source>
        <translation>In den letzten 24 Stunden</translation>
    </message>
    <message>
        <source>In the last 7 days</source>
        <translation>In den letzten 7 Tagen</translation>
    </message>
    <message>
        <source>In the last 30 days</source>
        <translation>In den letzten 30 Tagen</translation>
    </message>
    <message>
        <source>Event id or delivery number (Ctrl+F)</source>
        <translation>Ereignis-ID oder Zustellnr. (Strg+F)</translation>
    </message>
    <message>
        <source>Enter opens the selected delivery.</source>
        <translation>Eingabe öffnet die ausgewählte Zustellung.</translation>
    </message>
    <message>
        <source>No delivery has the event id or number %1.</source>
        <translation>Keine Zustellung hat die Ereignis-ID oder Nummer %1.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Marking delivery %1 reviewed…</source>
        <translation>Zustellung %1 wird als geprüft markiert…</translation>
    </message>
    <message>
        <source>Re-running delivery %1…</source>
        <translation>Zustellung %1 wird erneut ausgeführt…</translation>
    </message>
    <message>
        <source>Provider: %1</source>
        <translation>Anbieter: %1</translation>
    </message>
    <message>
        <source>Outcome: %1</source>
        <translation>Ergebnis: %1</translation>
    </message>
    <message>
        <source>Event id or number: %1</source>
        <translation>Ereignis-ID oder Nummer: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::LastBackup</name>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message>
        <source>1 minute ago</source>
        <translation>vor 1 Minute</translation>
    </message>
    <message>
        <source>%1 minutes ago</source>
        <translation>vor %1 Minuten</translation>
    </message>
    <message>
        <source>1 hour ago</source>
        <translation>vor 1 Stunde</translation>
    </message>
    <message>
        <source>%1 hours ago</source>
        <translation>vor %1 Stunden</translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>gestern</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>Take one with File › Back up… (it copies the whole database into one file you can restore and verify).</source>
        <translation>Erstellen Sie eine mit Datei › Sichern… (kopiert die gesamte Datenbank in eine Datei, die Sie wiederherstellen und prüfen können).</translation>
    </message>
    <message>
        <source>No backup yet</source>
        <translation>Noch keine Sicherung</translation>
    </message>
    <message>
        <source>This database has never been backed up: a lost disk would lose the ledger, the cases and the audit trail.
</source>
        <translation>Diese Datenbank wurde noch nie gesichert: Ein verlorener Datenträger würde das Hauptbuch, die Fälle und das Prüfprotokoll kosten.
</translation>
    </message>
    <message>
        <source>Last backup: %1</source>
        <translation>Letzte Sicherung: %1</translation>
    </message>
    <message>
        <source>Last backup taken %1 (%2) by %3:
%4 (%5)</source>
        <translation>Letzte Sicherung erstellt %1 (%2) von %3:
%4 (%5)</translation>
    </message>
    <message>
        <source>Older than %1: take a new one with File › Back up….</source>
        <translation>Älter als %1: Erstellen Sie eine neue mit Datei › Sichern….</translation>
    </message>
    <message>
        <source>The desk warns when it is older than %1.</source>
        <translation>Der Desk warnt, wenn sie älter als %1 ist.</translation>
    </message>
    <message>
        <source>Last backup: %1, audit chains broken</source>
        <translation>Letzte Sicherung: %1, Prüfketten gebrochen</translation>
    </message>
    <message>
        <source>It was taken with %1 break(s) in the audit chains: a restore gives back exactly that broken state. Find out why in the Audit log (Verify), then take a new one with File › Back up….</source>
        <translation>Sie wurde mit %1 Bruchstelle(n) in den Prüfketten erstellt: Eine Wiederherstellung ergibt genau diesen gebrochenen Zustand. Klären Sie die Ursache im Prüfprotokoll (Prüfen) und erstellen Sie dann eine neue mit Datei › Sichern….</translation>
    </message>
</context>
<context>
    <name>rd::ui::LedgerModel</name>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Internal id %1 · Enter opens the subscription</source>
        <translation>Interne ID %1 · Eingabe öffnet das Abonnement</translation>
    </message>
    <message>
        <source>Subscription internal id</source>
        <translation>Interne ID des Abonnements</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>Paid at</source>
        <translation>Bezahlt am</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Erfasst von</translation>
    </message>
    <message>
        <source>%1 · after close</source>
        <translation>%1 · nach Abschluss</translation>
    </message>
    <message>
        <source>Provider event</source>
        <translation>Anbieterereignis</translation>
    </message>
    <message>
        <source>Billing period id</source>
        <translation>ID des Abrechnungszeitraums</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>Recorded after its month was closed for this provider: not in that month&apos;s close report (money back is in the provider&apos;s next one)</source>
        <translation>Erfasst, nachdem sein Monat für diesen Anbieter abgeschlossen war: nicht im Abschlussbericht dieses Monats (Rückzahlungen stehen im nächsten des Anbieters)</translation>
    </message>
    <message>
        <source>Movement key</source>
        <translation>Bewegungsschlüssel</translation>
    </message>
</context>
<context>
    <name>rd::ui::LedgerPage</name>
    <message>
        <source>Currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>Renewals</source>
        <translation>Verlängerungen</translation>
    </message>
    <message>
        <source>Export rows…</source>
        <translation>Zeilen exportieren…</translation>
    </message>
    <message>
        <source>Export totals…</source>
        <translation>Summen exportieren…</translation>
    </message>
    <message>
        <source>Month (UTC)</source>
        <translation>Monat (UTC)</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Paid at</source>
        <translation>Bezahlt am</translation>
    </message>
    <message>
        <source>Period start</source>
        <translation>Beginn des Zeitraums</translation>
    </message>
    <message>
        <source>Which date of a billing period the range applies to (UTC days)</source>
        <translation>Auf welches Datum eines Abrechnungszeitraums sich der Bereich bezieht (UTC-Tage)</translation>
    </message>
    <message>
        <source>This month</source>
        <translation>Dieser Monat</translation>
    </message>
    <message>
        <source>Last month</source>
        <translation>Letzter Monat</translation>
    </message>
    <message>
        <source>This year</source>
        <translation>Dieses Jahr</translation>
    </message>
    <message>
        <source>Last year</source>
        <translation>Letztes Jahr</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>Custom dates</source>
        <translation>Eigene Daten</translation>
    </message>
    <message>
        <source>First UTC day of the range</source>
        <translation>Erster UTC-Tag des Bereichs</translation>
    </message>
    <message>
        <source>Last UTC day of the range (included)</source>
        <translation>Letzter UTC-Tag des Bereichs (einschließlich)</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>Alle Anbieter</translation>
    </message>
    <message>
        <source>All currencies</source>
        <translation>Alle Währungen</translation>
    </message>
    <message>
        <source>Recorded by anyone</source>
        <translation>Erfasst von allen</translation>
    </message>
    <message>
        <source>By %1</source>
        <translation>Von %1</translation>
    </message>
    <message>
        <source>Every row of this filter as CSV: ISO 8601 UTC instants, decimal amounts with their ISO currency code</source>
        <translation>Jede Zeile dieses Filters als CSV: ISO-8601-UTC-Zeitpunkte, Dezimalbeträge mit ihrem ISO-Währungscode</translation>
    </message>
    <message>
        <source>The totals below as CSV</source>
        <translation>Die Summen unten als CSV</translation>
    </message>
    <message>
        <source>UTC days, the last one included</source>
        <translation>UTC-Tage, der letzte einschließlich</translation>
    </message>
    <message>
        <source>The range ends (%1) before it starts (%2): choose a last day on or after the first.</source>
        <translation>Der Bereich endet (%1), bevor er beginnt (%2): Wählen Sie einen letzten Tag am oder nach dem ersten.</translation>
    </message>
    <message>
        <source>Totals: loading…</source>
        <translation>Summen: werden geladen…</translation>
    </message>
    <message>
        <source>Totals could not be read: %1</source>
        <translation>Summen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>paid</source>
        <translation>bezahlt</translation>
    </message>
    <message>
        <source>with a period starting</source>
        <translation>mit Zeitraumbeginn</translation>
    </message>
    <message>
        <source>any time</source>
        <translation>jederzeit</translation>
    </message>
    <message>
        <source>%1 – %2 (UTC)</source>
        <translation>%1 – %2 (UTC)</translation>
    </message>
    <message>
        <source>Totals of the one renewal %1 %2: per currency, by month and by provider</source>
        <translation>Summen der einen Verlängerung %1 %2: je Währung, nach Monat und nach Anbieter</translation>
    </message>
    <message>
        <source>Totals of the %1 renewals %2 %3: per currency across providers, by month and by provider; each currency apart</source>
        <translation>Summen der %1 Verlängerungen %2 %3: je Währung über alle Anbieter, nach Monat und nach Anbieter; jede Währung für sich</translation>
    </message>
    <message>
        <source>%1 minor units of %2</source>
        <translation>%1 Kleinsteinheiten von %2</translation>
    </message>
    <message>
        <source>Export totals as CSV</source>
        <translation>Summen als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Totals written to %1</source>
        <translation>Summen geschrieben nach %1</translation>
    </message>
    <message>
        <source>The totals could not be written: %1</source>
        <translation>Die Summen konnten nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Gross</source>
        <translation>Brutto</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>Erstattet</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>Angefochten</translation>
    </message>
    <message>
        <source>Net</source>
        <translation>Netto</translation>
    </message>
    <message>
        <source>. Refunds and disputes count in the month they happened, not their renewal&apos;s</source>
        <translation>. Erstattungen und Rückbuchungen zählen im Monat, in dem sie geschahen, nicht in dem ihrer Verlängerung</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 gross − %2 refunded − %3 disputed</source>
        <translation>%1 brutto − %2 erstattet − %3 angefochten</translation>
    </message>
    <message>
        <source>Money back</source>
        <translation>Rückzahlungen</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <source>Renewals, money back, or both. Money back (refunds, chargebacks and their reversals) is listed by the day it happened, signed; not by period start, nor under a Recorded by filter</source>
        <translation>Verlängerungen, Rückzahlungen oder beides. Rückzahlungen (Erstattungen, Rückbuchungen und ihre Stornierungen) stehen am Tag, an dem sie geschahen, mit Vorzeichen; nicht nach Zeitraumbeginn und nicht unter einem Filter „Erfasst von“</translation>
    </message>
    <message>
        <source>Dates: %1</source>
        <translation>Daten: %1</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Provider: %1</source>
        <translation>Anbieter: %1</translation>
    </message>
    <message>
        <source>Currency: %1</source>
        <translation>Währung: %1</translation>
    </message>
    <message>
        <source>Rows: %1</source>
        <translation>Zeilen: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::MainWindow</name>
    <message>
        <source>Renewal Desk — %1</source>
        <translation>Renewal Desk – %1</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Subscriptions</source>
        <translation>Abonnements</translation>
    </message>
    <message>
        <source>Ledger</source>
        <translation>Hauptbuch</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Fälle</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>Posteingang</translation>
    </message>
    <message>
        <source>Outbox</source>
        <translation>Postausgang</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>Verbindung wird hergestellt</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Connect to a database…</source>
        <translation>Mit einer Datenbank &amp;verbinden…</translation>
    </message>
    <message>
        <source>&amp;Import provider statement…</source>
        <translation>Anbieterabrechnung &amp;importieren…</translation>
    </message>
    <message>
        <source>&amp;Back up…</source>
        <translation>&amp;Sichern…</translation>
    </message>
    <message>
        <source>&amp;Restore…</source>
        <translation>&amp;Wiederherstellen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Find in this view</source>
        <translation>In dieser Ansicht &amp;suchen</translation>
    </message>
    <message>
        <source>Find &amp;anything (any id)…</source>
        <translation>Alles f&amp;inden (beliebige ID)…</translation>
    </message>
    <message>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <source>&amp;Go to position in the sort order</source>
        <translation>&amp;Gehe zu Position in der Sortierung</translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <source>Export current table as CSV…</source>
        <translation>Aktuelle Tabelle als CSV exportieren…</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Zurück</translation>
    </message>
    <message>
        <source>F&amp;orward</source>
        <translation>&amp;Vorwärts</translation>
    </message>
    <message>
        <source>&amp;Case</source>
        <translation>&amp;Fall</translation>
    </message>
    <message>
        <source>&amp;Ledger</source>
        <translation>Haupt&amp;buch</translation>
    </message>
    <message>
        <source>&amp;Statements…</source>
        <translation>&amp;Abrechnungen…</translation>
    </message>
    <message>
        <source>&amp;Close month…</source>
        <translation>Monat ab&amp;schließen…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Renewal Desk</source>
        <translation>Über Renewal &amp;Desk</translation>
    </message>
    <message>
        <source>The database is not answering (%1). Reconnecting automatically; what you see may be out of date.</source>
        <translation>Die Datenbank antwortet nicht (%1). Die Verbindung wird automatisch wiederhergestellt; was Sie sehen, ist möglicherweise nicht aktuell.</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>Verbindung verloren</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>offline</translation>
    </message>
    <message>
        <source>Not following changes until the database answers again.</source>
        <translation>Änderungen werden erst wieder verfolgt, wenn die Datenbank antwortet.</translation>
    </message>
    <message>
        <source>read-only replica</source>
        <translation>schreibgeschütztes Replikat</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Bearbeiter</translation>
    </message>
    <message>
        <source>viewer</source>
        <translation>nur lesen</translation>
    </message>
    <message>
        <source>Your database role may only look: marking a delivery reviewed or re-running it needs renewal_operator.</source>
        <translation>Ihre Datenbankrolle darf nur lesen: Eine Zustellung als geprüft zu markieren oder erneut auszuführen erfordert renewal_operator.</translation>
    </message>
    <message>
        <source>Your database role may act on cases.</source>
        <translation>Ihre Datenbankrolle darf Fälle bearbeiten.</translation>
    </message>
    <message>
        <source>Your database role may only look.</source>
        <translation>Ihre Datenbankrolle darf nur lesen.</translation>
    </message>
    <message>
        <source>Overview, Subscriptions, Ledger, Cases, Inbox and Outbox follow changes made anywhere as they happen.</source>
        <translation>Übersicht, Abonnements, Hauptbuch, Fälle, Posteingang und Postausgang zeigen Änderungen von überall, sobald sie geschehen.</translation>
    </message>
    <message>
        <source>Replica: a read-only hot standby. Its changes come from the primary by streaming replication; the desk looks for them every 2 s (a standby gets no notifications).</source>
        <translation>Replikat: ein schreibgeschützter Hot Standby. Seine Änderungen kommen per Streaming-Replikation vom Primärserver; der Desk sieht alle 2 s nach (ein Standby erhält keine Benachrichtigungen).</translation>
    </message>
    <message>
        <source>Newest change replayed: committed on the primary %1 (%2 UTC).</source>
        <translation>Neueste nachvollzogene Änderung: auf dem Primärserver festgeschrieben %1 (%2 UTC).</translation>
    </message>
    <message>
        <source>No change replayed since the standby started.</source>
        <translation>Seit dem Start des Standby wurde keine Änderung nachvollzogen.</translation>
    </message>
    <message>
        <source>live · replica</source>
        <translation>live · Replikat</translation>
    </message>
    <message>
        <source>live</source>
        <translation>live</translation>
    </message>
    <message>
        <source>Read-only replica — actions disabled.</source>
        <translation>Schreibgeschütztes Replikat – Aktionen deaktiviert.</translation>
    </message>
    <message>
        <source>This desk shows a hot standby of the database: browse, search and export as usual; to act on cases, connect to the primary (File › Connect…).</source>
        <translation>Dieser Desk zeigt einen Hot Standby der Datenbank: Durchsuchen, suchen und exportieren wie gewohnt; um Fälle zu bearbeiten, verbinden Sie sich mit dem Primärserver (Datei › Verbinden…).</translation>
    </message>
    <message>
        <source>Renewal Desk — %1 — read-only replica</source>
        <translation>Renewal Desk – %1 – schreibgeschütztes Replikat</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>wird gelesen…</translation>
    </message>
    <message>
        <source>unknown (%1)</source>
        <translation>unbekannt (%1)</translation>
    </message>
    <message>
        <source>no migrations recorded</source>
        <translation>keine Migrationen erfasst</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Renewal Desk %1&lt;/h3&gt;&lt;p&gt;Subscription renewals and their reconciliation.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2 (built with %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Database&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;PostgreSQL server&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Schema (newest migration)&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;h3&gt;Renewal Desk %1&lt;/h3&gt;&lt;p&gt;Abonnementverlängerungen und ihre Abstimmung.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2 (erstellt mit %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Datenbank&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;PostgreSQL-Server&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Schema (neueste Migration)&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>About Renewal Desk</source>
        <translation>Über Renewal Desk</translation>
    </message>
    <message>
        <source>Click to back up now.</source>
        <translation>Klicken, um jetzt zu sichern.</translation>
    </message>
    <message>
        <source>Opened %1 (found by %2).</source>
        <translation>%1 geöffnet (gefunden über %2).</translation>
    </message>
    <message>
        <source>This view has no search: Subscriptions, Cases and Inbox do.</source>
        <translation>Diese Ansicht hat keine Suche: Abonnements, Fälle und Posteingang haben eine.</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>In a list: open the selected row (a case: its subscription)</source>
        <translation>In einer Liste: die ausgewählte Zeile öffnen (ein Fall: sein Abonnement)</translation>
    </message>
    <message>
        <source>In a list: copy the selected rows (tab-separated, with a header)</source>
        <translation>In einer Liste: die ausgewählten Zeilen kopieren (tabulatorgetrennt, mit Kopfzeile)</translation>
    </message>
    <message>
        <source>Tab, Shift+Tab</source>
        <translation>Tab, Umschalt+Tab</translation>
    </message>
    <message>
        <source>Next, previous control (out of a list; the arrows move within it)</source>
        <translation>Nächstes, vorheriges Bedienelement (aus einer Liste heraus; die Pfeiltasten bewegen sich darin)</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Strg+Eingabe</translation>
    </message>
    <message>
        <source>In a note or comment: submit the dialog</source>
        <translation>In einer Notiz oder einem Kommentar: den Dialog absenden</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>In a search box: open the first match</source>
        <translation>In einem Suchfeld: den ersten Treffer öffnen</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Does</source>
        <translation>Bewirkt</translation>
    </message>
    <message>
        <source>Cases  (%1)</source>
        <translation>Fälle  (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n open reconciliation case(s) waiting for a decision</source>
        <translation>
            <numerusform>%n offener Klärungsfall wartet auf eine Entscheidung</numerusform>
            <numerusform>%n offene Klärungsfälle warten auf eine Entscheidung</numerusform>
        </translation>
    </message>
    <message>
        <source>No open reconciliation cases</source>
        <translation>Keine offenen Klärungsfälle</translation>
    </message>
    <message>
        <source>Payment trouble</source>
        <translation>Zahlungsprobleme</translation>
    </message>
    <message>
        <source>Your database role may only look: extending a subscription&apos;s grace needs renewal_operator.</source>
        <translation>Ihre Datenbankrolle darf nur ansehen: Eine Kulanzfrist zu verlängern erfordert renewal_operator.</translation>
    </message>
</context>
<context>
    <name>rd::ui::MonthClose</name>
    <message>
        <source>&lt;p&gt;The renewals recorded for &lt;b&gt;%1&lt;/b&gt; and paid in &lt;b&gt;%2&lt;/b&gt; (UTC), compared with the provider&apos;s statement.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die für &lt;b&gt;%1&lt;/b&gt; erfassten und im &lt;b&gt;%2&lt;/b&gt; (UTC) bezahlten Verlängerungen, verglichen mit der Abrechnung des Anbieters.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Month</source>
        <translation>Monat</translation>
    </message>
    <message>
        <source>Closed by</source>
        <translation>Abgeschlossen von</translation>
    </message>
    <message>
        <source>Closed at</source>
        <translation>Abgeschlossen am</translation>
    </message>
    <message>
        <source>Statement SHA-256</source>
        <translation>SHA-256 der Abrechnung</translation>
    </message>
    <message>
        <source>Totals per currency</source>
        <translation>Summen je Währung</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>Ledger renewals</source>
        <translation>Verlängerungen im Hauptbuch</translation>
    </message>
    <message>
        <source>Ledger amount</source>
        <translation>Betrag im Hauptbuch</translation>
    </message>
    <message>
        <source>Statement renewals</source>
        <translation>Verlängerungen in der Abrechnung</translation>
    </message>
    <message>
        <source>Statement amount</source>
        <translation>Betrag in der Abrechnung</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>Differenz</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>No renewal was paid in this month on either side.</source>
        <translation>In diesem Monat wurde auf keiner Seite eine Verlängerung bezahlt.</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>Befunde</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Abgeglichen</translation>
    </message>
    <message>
        <source>Backfilled from the statement</source>
        <translation>Aus der Abrechnung nachgetragen</translation>
    </message>
    <message>
        <source>Unapplied (a case)</source>
        <translation>Nicht angewendet (ein Fall)</translation>
    </message>
    <message>
        <source>Differing (a case)</source>
        <translation>Abweichend (ein Fall)</translation>
    </message>
    <message>
        <source>Recorded here, not in the statement (a case)</source>
        <translation>Hier erfasst, nicht in der Abrechnung (ein Fall)</translation>
    </message>
    <message>
        <source>Cases resolved</source>
        <translation>Erledigte Fälle</translation>
    </message>
    <message>
        <source>Cases dismissed</source>
        <translation>Verworfene Fälle</translation>
    </message>
    <message>
        <source>case %1 (%2): %3</source>
        <translation>Fall %1 (%2): %3</translation>
    </message>
    <message>
        <source> by %1, %2</source>
        <translation> von %1, %2</translation>
    </message>
    <message>
        <source>recorded from the statement</source>
        <translation>aus der Abrechnung erfasst</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>Paid (UTC)</source>
        <translation>Bezahlt (UTC)</translation>
    </message>
    <message>
        <source>How it was resolved</source>
        <translation>Wie er geklärt wurde</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1 matched renewal(s) are listed in the CSV report.&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1 abgeglichene Verlängerung(en) sind im CSV-Bericht aufgeführt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Audit anchor</source>
        <translation>Prüfanker</translation>
    </message>
    <message>
        <source>&lt;p&gt;SHA-256 over the heads of the %1 audit chains at the close, as &lt;tt&gt;renewalctl audit anchor&lt;/tt&gt; computes it:&lt;/p&gt;</source>
        <translation>&lt;p&gt;SHA-256 über die Köpfe der %1 Prüfketten beim Abschluss, wie &lt;tt&gt;renewalctl audit anchor&lt;/tt&gt; sie berechnet:&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Month close %1 %2</source>
        <translation>Monatsabschluss %1 %2</translation>
    </message>
    <message>
        <source>%1&apos;s %2 is closed.</source>
        <translation>%1, %2 ist abgeschlossen.</translation>
    </message>
    <message>
        <source>every page fetched from the API</source>
        <translation>jede Seite aus der API abgerufen</translation>
    </message>
    <message>
        <source>every page checked against the fetch&apos;s manifest</source>
        <translation>jede Seite gegen das Manifest des Abrufs geprüft</translation>
    </message>
    <message>
        <source>stated complete by the operator (--pages-complete)</source>
        <translation>vom Bearbeiter als vollständig erklärt (--pages-complete)</translation>
    </message>
    <message>
        <source>imported before completeness was recorded</source>
        <translation>importiert, bevor die Vollständigkeit erfasst wurde</translation>
    </message>
    <message>
        <source>Statement completeness</source>
        <translation>Vollständigkeit der Abrechnung</translation>
    </message>
    <message>
        <source>%1 is not the first day of a month</source>
        <translation>%1 ist nicht der erste Tag eines Monats</translation>
    </message>
    <message>
        <source>provider %1 is not registered</source>
        <translation>Anbieter %1 ist nicht registriert</translation>
    </message>
    <message>
        <source>%1 %2 was closed already, by %3 at %4</source>
        <translation>%1 %2 wurde bereits abgeschlossen, von %3 am %4</translation>
    </message>
    <message>
        <source>%1 has not ended yet (it ends at %2)</source>
        <translation>%1 ist noch nicht zu Ende (er endet am %2)</translation>
    </message>
    <message>
        <source>no statement run of %1 covering %2 is proven complete (%3: pages given without their manifest); import the pages with the manifest `statement fetch --save` wrote, fetch them, or state --pages-complete</source>
        <translation>kein Abrechnungslauf von %1 für %2 ist nachweislich vollständig (%3: Seiten ohne ihr Manifest); importieren Sie die Seiten mit dem Manifest, das `statement fetch --save` geschrieben hat, rufen Sie sie ab, oder erklären Sie --pages-complete</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>runs %1</source>
        <translation>Läufe %1</translation>
    </message>
    <message>
        <source>%1 %2 has 1 open statement case (case %3); resolve or dismiss them first</source>
        <translation>%1 %2 hat 1 offenen Abrechnungsfall (Fall %3); erledigen oder verwerfen Sie ihn zuerst</translation>
    </message>
    <message>
        <source>%1 %2 has %4 open statement cases (cases %3); resolve or dismiss them first</source>
        <translation>%1 %2 hat %4 offene Abrechnungsfälle (Fälle %3); erledigen oder verwerfen Sie sie zuerst</translation>
    </message>
    <message>
        <source>Gross, money back and net</source>
        <translation>Brutto, Rückzahlungen und netto</translation>
    </message>
    <message>
        <source>&lt;p&gt;This month was closed before Renewal Desk counted refunds and disputes: its close holds the renewals only.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dieser Monat wurde abgeschlossen, bevor Renewal Desk Erstattungen und Rückbuchungen zählte: Sein Abschluss enthält nur die Verlängerungen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Refunds and disputes count in the month they happened, whatever renewal they pay back. Money back of earlier months recorded after their close is counted here, and listed below; those months&apos; reports stay as they were closed.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Erstattungen und Rückbuchungen zählen in dem Monat, in dem sie geschahen, gleich welche Verlängerung sie zurückzahlen. Rückzahlungen früherer Monate, die nach deren Abschluss erfasst wurden, werden hier gezählt und unten aufgeführt; die Berichte jener Monate bleiben, wie sie abgeschlossen wurden.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Gross</source>
        <translation>Brutto</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>Erstattet</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>Zurückgebucht</translation>
    </message>
    <message>
        <source>Net</source>
        <translation>Netto</translation>
    </message>
    <message>
        <source>After close, earlier months</source>
        <translation>Nach Abschluss, frühere Monate</translation>
    </message>
    <message>
        <source>refunded %1, disputed %2</source>
        <translation>erstattet %1, zurückgebucht %2</translation>
    </message>
    <message>
        <source>No renewal was paid and no money went back in this month.</source>
        <translation>In diesem Monat wurde keine Verlängerung bezahlt und nichts zurückgezahlt.</translation>
    </message>
    <message>
        <source>Money back recorded after its month was closed</source>
        <translation>Rückzahlungen, erfasst nach dem Abschluss ihres Monats</translation>
    </message>
    <message>
        <source>Movement</source>
        <translation>Bewegung</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Happened (UTC)</source>
        <translation>Geschehen (UTC)</translation>
    </message>
    <message>
        <source>Recorded (UTC)</source>
        <translation>Erfasst (UTC)</translation>
    </message>
    <message>
        <source>run #%1: %2</source>
        <translation>Lauf Nr. %1: %2</translation>
    </message>
    <message>
        <source>no statement run of %1 covers all of %2: run %3 covers only %4 to %5; closing %2 needs one covering %6 to %7 (import the statement again with those days)</source>
        <translation>kein Abrechnungslauf von %1 deckt ganz %2 ab: Lauf %3 deckt nur %4 bis %5 ab; der Abschluss von %2 braucht einen, der %6 bis %7 abdeckt (importieren Sie die Abrechnung erneut mit diesen Tagen)</translation>
    </message>
    <message>
        <source>no statement run of %1 covers all of %2 (%3 to %4); import a statement of the whole month first</source>
        <translation>kein Abrechnungslauf von %1 deckt ganz %2 ab (%3 bis %4); importieren Sie zuerst eine Abrechnung des ganzen Monats</translation>
    </message>
    <message>
        <source>Sign-off</source>
        <translation>Freigabe</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>Unterschrift</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>Erstellt von</translation>
    </message>
    <message>
        <source>Reviewed by</source>
        <translation>Geprüft von</translation>
    </message>
    <message>
        <source>%1 %2 month close, page %3 of %4</source>
        <translation>%1 %2 Monatsabschluss, Seite %3 von %4</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Abrechnung</translation>
    </message>
</context>
<context>
    <name>rd::ui::NewRowsBar</name>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Scroll to the first new row and select it</source>
        <translation>Zur ersten neuen Zeile scrollen und sie auswählen</translation>
    </message>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n neu</numerusform>
            <numerusform>%n neu</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>rd::ui::OperatorNoteDialog</name>
    <message>
        <source>%1 case %2</source>
        <translation>%1 Fall %2</translation>
    </message>
    <message>
        <source>What you checked, for whoever reads the audit trail</source>
        <translation>Was Sie geprüft haben – für alle, die das Prüfprotokoll lesen</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>%1 1 case</source>
        <translation>%1 1 Fall</translation>
    </message>
    <message>
        <source>%1 %2 cases</source>
        <translation>%1 %2 Fälle</translation>
    </message>
    <message>
        <source>Choose the reason that is true: the audit trail keeps it.</source>
        <translation>Wählen Sie den zutreffenden Grund: Das Prüfprotokoll bewahrt ihn.</translation>
    </message>
    <message>
        <source>Write a note saying why: the audit trail keeps it.</source>
        <translation>Schreiben Sie eine Notiz mit der Begründung: Das Prüfprotokoll bewahrt sie.</translation>
    </message>
</context>
<context>
    <name>rd::ui::OutboxPage</name>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>published</source>
        <translation>veröffentlicht</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Intent</source>
        <translation>Auftrag</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Veröffentlicht</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>Not yet delivered (pending, failed)</source>
        <translation>Noch nicht zugestellt (ausstehend, fehlgeschlagen)</translation>
    </message>
    <message>
        <source>Failed, retrying</source>
        <translation>Fehlgeschlagen, wird wiederholt</translation>
    </message>
    <message>
        <source>All intents</source>
        <translation>Alle Aufträge</translation>
    </message>
    <message>
        <source>%1 failed and retrying</source>
        <translation>%1 fehlgeschlagen, werden wiederholt</translation>
    </message>
    <message>
        <source>%1 pending</source>
        <translation>%1 ausstehend</translation>
    </message>
</context>
<context>
    <name>rd::ui::OutboxPublisher</name>
    <message>
        <source>Start one with: renewalctl outbox publish --follow --jsonl FILE (or --exec CMD).</source>
        <translation>Starten Sie einen mit: renewalctl outbox publish --follow --jsonl FILE (oder --exec CMD).</translation>
    </message>
    <message>
        <source>publisher running</source>
        <translation>Veröffentlicher läuft</translation>
    </message>
    <message numerus="yes">
        <source>%n renewalctl outbox publish session(s) connected</source>
        <translation>
            <numerusform>%n Sitzung von renewalctl outbox publish verbunden</numerusform>
            <numerusform>%n Sitzungen von renewalctl outbox publish verbunden</numerusform>
        </translation>
    </message>
    <message>
        <source>last published %1</source>
        <translation>zuletzt veröffentlicht %1</translation>
    </message>
    <message>
        <source>no publisher has run yet</source>
        <translation>es lief noch kein Veröffentlicher</translation>
    </message>
    <message>
        <source>Nothing was ever published: intents wait until a publisher runs. </source>
        <translation>Es wurde noch nie etwas veröffentlicht: Aufträge warten, bis ein Veröffentlicher läuft. </translation>
    </message>
    <message>
        <source>no publisher has run for %1</source>
        <translation>seit %1 lief kein Veröffentlicher</translation>
    </message>
    <message>
        <source>No renewalctl outbox publish is connected; the last intent was published %1. </source>
        <translation>Kein renewalctl outbox publish ist verbunden; der letzte Auftrag wurde %1 veröffentlicht. </translation>
    </message>
</context>
<context>
    <name>rd::ui::OverdueWatch</name>
    <message>
        <source>Import or fetch a statement, or attach a snapshot: %1 has no renewal recorded for the period that ended %2</source>
        <translation>Abrechnung importieren oder abrufen oder Snapshot anhängen: für den am %2 beendeten Zeitraum ist bei %1 keine Verlängerung erfasst</translation>
    </message>
</context>
<context>
    <name>rd::ui::OverviewCharts</name>
    <message>
        <source>not processed yet</source>
        <translation>noch nicht verarbeitet</translation>
    </message>
    <message>
        <source>not a renewal</source>
        <translation>keine Verlängerung</translation>
    </message>
    <message>
        <source>needs snapshot</source>
        <translation>Snapshot nötig</translation>
    </message>
    <message>
        <source>Gap or overlap</source>
        <translation>Lücke oder Überschneidung</translation>
    </message>
    <message>
        <source>Payload conflict</source>
        <translation>Nutzdatenkonflikt</translation>
    </message>
    <message>
        <source>Set to cancel</source>
        <translation>Zur Kündigung vorgemerkt</translation>
    </message>
    <message>
        <source>Not active</source>
        <translation>Nicht aktiv</translation>
    </message>
    <message>
        <source>Unknown subscription</source>
        <translation>Unbekanntes Abonnement</translation>
    </message>
    <message>
        <source>No current period</source>
        <translation>Kein aktueller Zeitraum</translation>
    </message>
    <message>
        <source>Invalid period</source>
        <translation>Ungültiger Zeitraum</translation>
    </message>
    <message>
        <source>Needs snapshot</source>
        <translation>Snapshot nötig</translation>
    </message>
    <message>
        <source>&lt; 1 h</source>
        <translation>&lt; 1 h</translation>
    </message>
    <message>
        <source>&lt; 1 day</source>
        <translation>&lt; 1 Tag</translation>
    </message>
    <message>
        <source>&lt; 1 week</source>
        <translation>&lt; 1 Woche</translation>
    </message>
    <message>
        <source>older</source>
        <translation>älter</translation>
    </message>
    <message>
        <source>%1 – %2 (UTC)</source>
        <translation>%1 – %2 (UTC)</translation>
    </message>
    <message>
        <source>%1, %2 – %3 (UTC days)</source>
        <translation>%1, %2 – %3 (UTC-Tage)</translation>
    </message>
    <message>
        <source>Renewals per day, by provider</source>
        <translation>Verlängerungen pro Tag, nach Anbieter</translation>
    </message>
    <message>
        <source>%1 (UTC) · %2: %3 renewals</source>
        <translation>%1 (UTC) · %2: %3 Verlängerungen</translation>
    </message>
    <message>
        <source>: none in 30 days</source>
        <translation>: keine in 30 Tagen</translation>
    </message>
    <message>
        <source>Deliveries by outcome, 30 days</source>
        <translation>Zustellungen nach Ergebnis, 30 Tage</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 deliveries received in the last 30 UTC days; click for them in the Inbox</source>
        <translation>%1 Zustellungen in den letzten 30 UTC-Tagen empfangen; klicken, um sie im Posteingang zu sehen</translation>
    </message>
    <message>
        <source>Cases opened and closed per day</source>
        <translation>Fälle pro Tag</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>opened</source>
        <translation>eröffnet</translation>
    </message>
    <message>
        <source>%1 (UTC): %2 %3; click for them</source>
        <translation>%1 (UTC): %2 %3; klicken, um sie zu sehen</translation>
    </message>
    <message>
        <source>Open cases by reason</source>
        <translation>Offene Fälle nach Grund</translation>
    </message>
    <message>
        <source>open cases</source>
        <translation>offene Fälle</translation>
    </message>
    <message>
        <source>%1: click for these cases</source>
        <translation>%1: klicken für diese Fälle</translation>
    </message>
    <message>
        <source>no open case</source>
        <translation>kein offener Fall</translation>
    </message>
    <message>
        <source>Open cases by age</source>
        <translation>Offene Fälle nach Alter</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Open cases by time since first seen, %1; click for them</source>
        <translation>Offene Fälle nach Zeit seit dem ersten Auftreten, %1; klicken, um sie zu sehen</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>angewendet</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>Duplikat</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>ungültig</translation>
    </message>
    <message>
        <source>Statement differs</source>
        <translation>Abrechnung weicht ab</translation>
    </message>
    <message>
        <source>Not in statement</source>
        <translation>Nicht in der Abrechnung</translation>
    </message>
    <message>
        <source>Unreadable in statement</source>
        <translation>Unlesbar in Abrechnung</translation>
    </message>
    <message>
        <source>Refund before renewal</source>
        <translation>Erstattung vor Verlängerung</translation>
    </message>
    <message>
        <source>Refund over payment</source>
        <translation>Erstattung über Zahlung</translation>
    </message>
    <message>
        <source>Refund conflict</source>
        <translation>Erstattungskonflikt</translation>
    </message>
    <message>
        <source>money back, payment trouble</source>
        <translation>Rückzahlung, Zahlungsproblem</translation>
    </message>
</context>
<context>
    <name>rd::ui::OverviewPage</name>
    <message>
        <source>and %1 more</source>
        <translation>und %1 weitere</translation>
    </message>
    <message>
        <source>Renewals today</source>
        <translation>Verlängerungen heute</translation>
    </message>
    <message>
        <source>Renewals this month</source>
        <translation>Verlängerungen diesen Monat</translation>
    </message>
    <message>
        <source>Open cases</source>
        <translation>Offene Fälle</translation>
    </message>
    <message>
        <source>Overdue</source>
        <translation>Überfällig</translation>
    </message>
    <message>
        <source>Outbox</source>
        <translation>Postausgang</translation>
    </message>
    <message>
        <source>Last delivery received</source>
        <translation>Letzte empfangene Zustellung</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>The overview could not be read: %1</source>
        <translation>Die Übersicht konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Days are UTC days; the charts cover %1 – %2 (UTC). Click a figure or a bar to open the list behind it.</source>
        <translation>Tage sind UTC-Tage; die Diagramme umfassen %1 – %2 (UTC). Klicken Sie auf eine Zahl oder einen Balken, um die Liste dahinter zu öffnen.</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch keine</translation>
    </message>
    <message>
        <source>No renewal paid in this period.</source>
        <translation>In diesem Zeitraum wurde keine Verlängerung bezahlt.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>1 renewal</source>
        <translation>1 Verlängerung</translation>
    </message>
    <message>
        <source>%1 renewals</source>
        <translation>%1 Verlängerungen</translation>
    </message>
    <message>
        <source>%1 renewals paid in %2, %3 – %4 (UTC days); click for the ledger</source>
        <translation>%1 Verlängerungen bezahlt in %2, %3 – %4 (UTC-Tage); klicken für das Hauptbuch</translation>
    </message>
    <message numerus="yes">
        <source>and %n more currencies</source>
        <translation>
            <numerusform>und %n weitere Währung</numerusform>
            <numerusform>und %n weitere Währungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Every currency in the ledger</source>
        <translation>Jede Währung im Hauptbuch</translation>
    </message>
    <message>
        <source>Renewals today (%1, UTC)</source>
        <translation>Verlängerungen heute (%1, UTC)</translation>
    </message>
    <message>
        <source>Renewals this month (%1, UTC)</source>
        <translation>Verlängerungen diesen Monat (%1, UTC)</translation>
    </message>
    <message numerus="yes">
        <source>%n recorded after close</source>
        <translation>
            <numerusform>%n nach Abschluss erfasst</numerusform>
            <numerusform>%n nach Abschluss erfasst</numerusform>
        </translation>
    </message>
    <message>
        <source>Renewals paid in a closed month and recorded after its close: not in its close report. Click for the ledger of %1 %2</source>
        <translation>Verlängerungen, die in einem abgeschlossenen Monat bezahlt und nach dessen Abschluss erfasst wurden: nicht in seinem Abschlussbericht. Klicken für das Hauptbuch von %1 %2</translation>
    </message>
    <message>
        <source>Open reconciliation cases; click for the queue</source>
        <translation>Offene Klärungsfälle; klicken für die Warteschlange</translation>
    </message>
    <message>
        <source>oldest %1 (case %2)</source>
        <translation>ältester %1 (Fall %2)</translation>
    </message>
    <message>
        <source>Opened %1 (%2); click to open it</source>
        <translation>Eröffnet %1 (%2); klicken, um ihn zu öffnen</translation>
    </message>
    <message>
        <source>nothing waiting</source>
        <translation>nichts wartet</translation>
    </message>
    <message>
        <source>a grace of %1 h (the desk&apos;s setting)</source>
        <translation>eine Kulanzfrist von %1 h (Einstellung des Desks)</translation>
    </message>
    <message>
        <source>each provider&apos;s grace</source>
        <translation>die Kulanzfrist des jeweiligen Anbieters</translation>
    </message>
    <message>
        <source>Active subscriptions whose period ended more than %1 ago with no renewal recorded: the payment failed at the provider or the renewal never reached us. Import or fetch a statement, or attach a snapshot. Click for them.</source>
        <translation>Aktive Abonnements, deren Zeitraum vor mehr als %1 endete, ohne dass eine Verlängerung erfasst wurde: Die Zahlung ist beim Anbieter fehlgeschlagen oder die Verlängerung hat uns nie erreicht. Importieren oder abrufen Sie eine Abrechnung oder hängen Sie einen Snapshot an. Klicken, um sie zu sehen.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>every renewal arrived</source>
        <translation>jede Verlängerung ist eingetroffen</translation>
    </message>
    <message>
        <source>%1 pending</source>
        <translation>%1 ausstehend</translation>
    </message>
    <message>
        <source>Intents not yet delivered, not failed; click for the outbox</source>
        <translation>Noch nicht zugestellte, nicht fehlgeschlagene Aufträge; klicken für den Postausgang</translation>
    </message>
    <message>
        <source>%1 failing</source>
        <translation>%1 fehlschlagend</translation>
    </message>
    <message>
        <source>Intents whose delivery failed and is being retried; click for them</source>
        <translation>Aufträge, deren Zustellung fehlgeschlagen ist und wiederholt wird; klicken, um sie zu sehen</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>Received %1 (%2); click for the inbox</source>
        <translation>Empfangen %1 (%2); klicken für den Posteingang</translation>
    </message>
    <message>
        <source>No webhook delivery was received</source>
        <translation>Es wurde keine Webhook-Zustellung empfangen</translation>
    </message>
    <message numerus="yes">
        <source>%n invalid to review</source>
        <translation>
            <numerusform>%n ungültige zu prüfen</numerusform>
            <numerusform>%n ungültige zu prüfen</numerusform>
        </translation>
    </message>
    <message>
        <source>Deliveries whose payload could not be read and that nobody has marked reviewed or re-run; click for them</source>
        <translation>Zustellungen, deren Nutzdaten nicht gelesen werden konnten und die niemand als geprüft markiert oder erneut ausgeführt hat; klicken, um sie zu sehen</translation>
    </message>
    <message>
        <source>Click to back up now.</source>
        <translation>Klicken, um jetzt zu sichern.</translation>
    </message>
    <message>
        <source>%1 refunded or disputed in these days (each by its own day); the net is the gross less it</source>
        <translation>%1 in diesen Tagen erstattet oder angefochten (jeweils an ihrem eigenen Tag); netto ist brutto abzüglich dessen</translation>
    </message>
    <message>
        <source>net %1</source>
        <translation>netto %1</translation>
    </message>
    <message numerus="yes">
        <source>%n money back recorded after close</source>
        <translation>
            <numerusform>%n Rückzahlung nach Abschluss erfasst</numerusform>
            <numerusform>%n Rückzahlungen nach Abschluss erfasst</numerusform>
        </translation>
    </message>
    <message>
        <source>Refunds and disputes dated in a closed month and recorded after its close: that month&apos;s report stays as it was; the provider&apos;s next close counts and lists them. Click for the ledger of %1 %2</source>
        <translation>Erstattungen und Rückbuchungen, datiert in einem abgeschlossenen Monat und nach dessen Abschluss erfasst: Der Bericht jenes Monats bleibt, wie er war; der nächste Abschluss des Anbieters zählt und listet sie. Klicken für das Hauptbuch von %1 %2</translation>
    </message>
    <message>
        <source>Payment trouble</source>
        <translation>Zahlungsprobleme</translation>
    </message>
    <message>
        <source>%1 in grace, %2 blocked</source>
        <translation>%1 in Kulanzfrist, %2 gesperrt</translation>
    </message>
    <message>
        <source>Subscriptions whose payment failed or whose period ended unpaid: in grace (access kept while the provider retries or the grace runs) and blocked (access off). Click for them.</source>
        <translation>Abonnements, deren Zahlung fehlgeschlagen ist oder deren Zeitraum unbezahlt endete: in Kulanzfrist (Zugang bleibt, solange der Anbieter es erneut versucht oder die Kulanzfrist läuft) und gesperrt (Zugang aus). Klicken, um sie zu sehen.</translation>
    </message>
    <message>
        <source>no payment trouble</source>
        <translation>keine Zahlungsprobleme</translation>
    </message>
</context>
<context>
    <name>rd::ui::PagedTableModel</name>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
</context>
<context>
    <name>rd::ui::PaymentTroublePage</name>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>recovered (was %1)</source>
        <translation>erholt (war %1)</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Until %1</source>
        <translation>Bis %1</translation>
    </message>
    <message>
        <source>Seconds left</source>
        <translation>Verbleibende Sekunden</translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation>Entschieden von</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Open subscription</source>
        <translation>Abonnement öffnen</translation>
    </message>
    <message>
        <source>Extend grace…</source>
        <translation>Kulanzfrist verlängern…</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Seit</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Failed attempts</source>
        <translation>Fehlgeschlagene Versuche</translation>
    </message>
    <message>
        <source>Last failed</source>
        <translation>Zuletzt fehlgeschlagen</translation>
    </message>
    <message>
        <source>Last decline</source>
        <translation>Letzte Ablehnung</translation>
    </message>
    <message>
        <source>In grace and blocked</source>
        <translation>In Kulanzfrist und gesperrt</translation>
    </message>
    <message>
        <source>In grace</source>
        <translation>In Kulanzfrist</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>Gesperrt</translation>
    </message>
    <message>
        <source>Recovered this month</source>
        <translation>Diesen Monat erholt</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>Alle Anbieter</translation>
    </message>
    <message>
        <source>Subscription id…</source>
        <translation>Abonnement-ID…</translation>
    </message>
    <message>
        <source>Reading your database role…</source>
        <translation>Ihre Datenbankrolle wird gelesen…</translation>
    </message>
    <message>
        <source>The list could not be read: %1</source>
        <translation>Die Liste konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Payment trouble could not be read: %1</source>
        <translation>Zahlungsprobleme konnten nicht gelesen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n subscription(s) recovered this month (%1, UTC): their last change of access was from in grace or blocked to good standing.</source>
        <translation>
            <numerusform>%n Abonnement hat sich diesen Monat erholt (%1, UTC): Seine letzte Zugangsänderung war von in Kulanzfrist oder gesperrt zu in Ordnung.</numerusform>
            <numerusform>%n Abonnements haben sich diesen Monat erholt (%1, UTC): Ihre letzte Zugangsänderung war von in Kulanzfrist oder gesperrt zu in Ordnung.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in grace</source>
        <translation>
            <numerusform>%n in Kulanzfrist</numerusform>
            <numerusform>%n in Kulanzfrist</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation>
            <numerusform>%n gesperrt</numerusform>
            <numerusform>%n gesperrt</numerusform>
        </translation>
    </message>
    <message>
        <source>worked out now from the failed payments, the provider&apos;s standing, each provider&apos;s grace and operators&apos; extensions; blocked first, then the graces that end soonest.</source>
        <translation>jetzt ermittelt aus den fehlgeschlagenen Zahlungen, dem Stand beim Anbieter, der Kulanzfrist jedes Anbieters und den Verlängerungen durch Bearbeiter; gesperrte zuerst, dann die Kulanzfristen, die am frühesten enden.</translation>
    </message>
    <message>
        <source>Only the first %1 are listed: choose a provider.</source>
        <translation>Nur die ersten %1 sind aufgeführt: Wählen Sie einen Anbieter.</translation>
    </message>
    <message>
        <source>Open the subscription: its timeline and audit trail (Enter)</source>
        <translation>Das Abonnement öffnen: seine Zeitleiste und sein Prüfprotokoll (Eingabe)</translation>
    </message>
    <message>
        <source>Select a subscription first.</source>
        <translation>Wählen Sie zuerst ein Abonnement.</translation>
    </message>
    <message>
        <source>An extension is being recorded…</source>
        <translation>Eine Verlängerung wird erfasst…</translation>
    </message>
    <message>
        <source>Select a subscription in grace or blocked first.</source>
        <translation>Wählen Sie zuerst ein Abonnement in Kulanzfrist oder gesperrt.</translation>
    </message>
    <message>
        <source>It recovered: there is no grace to extend.</source>
        <translation>Es hat sich erholt: Es gibt keine Kulanzfrist zu verlängern.</translation>
    </message>
    <message>
        <source>Keep the selected subscription&apos;s access until a day you choose, with a note</source>
        <translation>Den Zugang des gewählten Abonnements bis zu einem gewählten Tag erhalten, mit einer Notiz</translation>
    </message>
    <message>
        <source>Extending the grace of %1/%2…</source>
        <translation>Kulanzfrist von %1/%2 wird verlängert…</translation>
    </message>
    <message>
        <source>Extend grace</source>
        <translation>Kulanzfrist verlängern</translation>
    </message>
</context>
<context>
    <name>rd::ui::ReasonBox</name>
    <message>
        <source>Choose a reason…</source>
        <translation>Grund wählen…</translation>
    </message>
</context>
<context>
    <name>rd::ui::RestoreDialog</name>
    <message>
        <source>A new embedded database, in the directory:</source>
        <translation>Eine neue eingebettete Datenbank im Verzeichnis:</translation>
    </message>
    <message>
        <source>An empty database on a server (connection string):</source>
        <translation>Eine leere Datenbank auf einem Server (Verbindungszeichenfolge):</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Open the restored database</source>
        <translation>Die wiederhergestellte Datenbank öffnen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Restore a backup</source>
        <translation>Eine Sicherung wiederherstellen</translation>
    </message>
    <message>
        <source>Restores a backup into a new, empty database and proves it: the counts against the backup&apos;s, the audit anchor, and every audit chain. A restore never goes over existing data.</source>
        <translation>Stellt eine Sicherung in eine neue, leere Datenbank wieder her und belegt sie: die Zeilenzahlen gegen die der Sicherung, den Prüfanker und jede Prüfkette. Eine Wiederherstellung überschreibt nie vorhandene Daten.</translation>
    </message>
    <message>
        <source>a .backup file written by File › Back up… or renewalctl</source>
        <translation>eine .backup-Datei, geschrieben von Datei › Sichern… oder renewalctl</translation>
    </message>
    <message>
        <source>Choose a backup file: what it holds shows here before anything is restored.</source>
        <translation>Wählen Sie eine Sicherungsdatei: Was sie enthält, wird hier angezeigt, bevor etwas wiederhergestellt wird.</translation>
    </message>
    <message>
        <source>A libpq connection string to an empty database; no password here (~/.pgpass keeps it).</source>
        <translation>Eine libpq-Verbindungszeichenfolge zu einer leeren Datenbank; kein Passwort hier (~/.pgpass bewahrt es).</translation>
    </message>
    <message>
        <source>Backup file:</source>
        <translation>Sicherungsdatei:</translation>
    </message>
    <message>
        <source>Digest you kept:</source>
        <translation>Aufbewahrte Prüfsumme:</translation>
    </message>
    <message>
        <source>Restore into:</source>
        <translation>Wiederherstellen in:</translation>
    </message>
    <message>
        <source>Switch the desk to the restored database.</source>
        <translation>Den Desk auf die wiederhergestellte Datenbank umstellen.</translation>
    </message>
    <message>
        <source>Restore from</source>
        <translation>Wiederherstellen aus</translation>
    </message>
    <message>
        <source>Renewal Desk backups (*.backup);;All files (*)</source>
        <translation>Renewal-Desk-Sicherungen (*.backup);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>A new, empty directory for the restored database</source>
        <translation>Ein neues, leeres Verzeichnis für die wiederhergestellte Datenbank</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Snapshot taken</source>
        <translation>Snapshot erstellt</translation>
    </message>
    <message>
        <source>Written by</source>
        <translation>Geschrieben von</translation>
    </message>
    <message>
        <source>Schema</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>It holds</source>
        <translation>Enthält</translation>
    </message>
    <message>
        <source>Audit anchor</source>
        <translation>Prüfanker</translation>
    </message>
    <message>
        <source>digest %1…%2, %3 chain heads</source>
        <translation>Prüfsumme %1…%2, %3 Kettenköpfe</translation>
    </message>
    <message>
        <source>Database dump</source>
        <translation>Datenbankabzug</translation>
    </message>
    <message>
        <source>Audit anchor digest: %1</source>
        <translation>Prüfsumme des Prüfankers: %1</translation>
    </message>
    <message>
        <source>Give the connection string of an empty database.</source>
        <translation>Geben Sie die Verbindungszeichenfolge einer leeren Datenbank an.</translation>
    </message>
    <message>
        <source>Choose a sound backup file first.</source>
        <translation>Wählen Sie zuerst eine einwandfreie Sicherungsdatei.</translation>
    </message>
    <message>
        <source>Restore the backup and verify it.</source>
        <translation>Die Sicherung wiederherstellen und prüfen.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>The new directory was removed again.</source>
        <translation>Das neue Verzeichnis wurde wieder entfernt.</translation>
    </message>
    <message>
        <source>Roles created on the server: %1.</source>
        <translation>Auf dem Server angelegte Rollen: %1.</translation>
    </message>
    <message>
        <source>The backup&apos;s schema was older: %1 migration(s) applied after it verified.</source>
        <translation>Das Schema der Sicherung war älter: %1 Migration(en) nach der Prüfung angewendet.</translation>
    </message>
    <message>
        <source>The restored database runs in %1; the desk starts it again when it is opened.</source>
        <translation>Die wiederhergestellte Datenbank liegt in %1; der Desk startet sie erneut, wenn sie geöffnet wird.</translation>
    </message>
    <message>
        <source>optional: the file&apos;s SHA-256 noted when it was taken</source>
        <translation>optional: die beim Sichern notierte SHA-256 der Datei</translation>
    </message>
    <message>
        <source>The file checks itself; the file&apos;s SHA-256 kept elsewhere (the Back up summary, renewalctl&apos;s &quot;file sha256&quot;, a published note) also proves it is the very backup taken then. Any other file is refused before anything is restored.</source>
        <translation>Die Datei prüft sich selbst; die getrennt aufbewahrte SHA-256 der Datei (aus der Zusammenfassung der Sicherung, „file sha256“ von renewalctl, einer veröffentlichten Notiz) belegt zudem, dass es genau die damals erstellte Sicherung ist. Jede andere Datei wird abgewiesen, bevor etwas wiederhergestellt wird.</translation>
    </message>
    <message>
        <source>File digest</source>
        <translation>Prüfsumme der Datei</translation>
    </message>
    <message>
        <source>SHA-256 %1…%2</source>
        <translation>SHA-256 %1…%2</translation>
    </message>
    <message>
        <source>File SHA-256: %1</source>
        <translation>SHA-256 der Datei: %1</translation>
    </message>
    <message>
        <source>Audit chains</source>
        <translation>Prüfketten</translation>
    </message>
    <message>
        <source>not verified when the backup was taken (an older file)</source>
        <translation>beim Erstellen der Sicherung nicht geprüft (eine ältere Datei)</translation>
    </message>
    <message>
        <source>intact when the backup was taken</source>
        <translation>intakt, als die Sicherung erstellt wurde</translation>
    </message>
    <message>
        <source>BROKEN when the backup was taken: %1 break(s), first: %2</source>
        <translation>GEBROCHEN, als die Sicherung erstellt wurde: %1 Bruchstelle(n), erste: %2</translation>
    </message>
</context>
<context>
    <name>rd::ui::ReviewDeliveryDialog</name>
    <message>
        <source>Mark delivery %1 reviewed</source>
        <translation>Zustellung %1 als geprüft markieren</translation>
    </message>
    <message>
        <source>Delivery %1 could not be read and opened no case. Say why nothing more is to be done about it: the note is kept with your name in the inbox.</source>
        <translation>Zustellung %1 konnte nicht gelesen werden und hat keinen Fall eröffnet. Begründen Sie, warum dazu nichts weiter zu tun ist: Die Notiz wird mit Ihrem Namen im Posteingang aufbewahrt.</translation>
    </message>
    <message>
        <source>e.g. a test payload from the provider&apos;s dashboard</source>
        <translation>z. B. Test-Nutzdaten aus dem Dashboard des Anbieters</translation>
    </message>
    <message>
        <source>Mark reviewed</source>
        <translation>Als geprüft markieren</translation>
    </message>
    <message>
        <source>Write a note to mark it reviewed.</source>
        <translation>Schreiben Sie eine Notiz, um sie als geprüft zu markieren.</translation>
    </message>
</context>
<context>
    <name>rd::ui::SnapshotDialog</name>
    <message>
        <source>Attach provider snapshot to case %1</source>
        <translation>Anbieter-Snapshot an Fall %1 anhängen</translation>
    </message>
    <message>
        <source>What you checked, for whoever reads the audit trail</source>
        <translation>Was Sie geprüft haben – für alle, die das Prüfprotokoll lesen</translation>
    </message>
    <message>
        <source>Paste the provider&apos;s subscription object (Stripe, Paddle) or a snapshot in Renewal Desk&apos;s form, or load it from a file.</source>
        <translation>Fügen Sie das Abonnementobjekt des Anbieters (Stripe, Paddle) oder einen Snapshot im Format von Renewal Desk ein, oder laden Sie ihn aus einer Datei.</translation>
    </message>
    <message>
        <source>Load from file…</source>
        <translation>Aus Datei laden…</translation>
    </message>
    <message>
        <source>Start from current state</source>
        <translation>Vom aktuellen Stand ausgehen</translation>
    </message>
    <message>
        <source>Fill in Renewal Desk&apos;s form with the subscription as the desk holds it and this case&apos;s renewal; then change what the provider shows differently.</source>
        <translation>Das Format von Renewal Desk mit dem Abonnement, wie der Desk es führt, und der Verlängerung dieses Falls ausfüllen; dann ändern, was der Anbieter anders zeigt.</translation>
    </message>
    <message>
        <source>Attach snapshot</source>
        <translation>Snapshot anhängen</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>pasted</source>
        <translation>eingefügt</translation>
    </message>
    <message>
        <source>Could not read the case&apos;s subscription: %1</source>
        <translation>Das Abonnement des Falls konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>there is no case %1</source>
        <translation>Es gibt keinen Fall %1</translation>
    </message>
    <message>
        <source>Attach provider snapshot to case %1 · %2 · %3</source>
        <translation>Anbieter-Snapshot an Fall %1 anhängen · %2 · %3</translation>
    </message>
    <message>
        <source>Load provider snapshot</source>
        <translation>Anbieter-Snapshot laden</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON-Dateien (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is %2 bytes; a snapshot is at most %3.</source>
        <translation>%1 hat %2 Bytes; ein Snapshot hat höchstens %3.</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>aus %1</translation>
    </message>
    <message>
        <source>the desk&apos;s current state: change what the provider shows differently</source>
        <translation>der aktuelle Stand des Desks: ändern Sie, was der Anbieter anders zeigt</translation>
    </message>
    <message>
        <source>Choose the reason that is true: the case&apos;s history keeps it.</source>
        <translation>Wählen Sie den zutreffenden Grund: Der Verlauf des Falls bewahrt ihn.</translation>
    </message>
    <message>
        <source>Reading the case&apos;s subscription…</source>
        <translation>Das Abonnement des Falls wird gelesen…</translation>
    </message>
    <message>
        <source>current (local)</source>
        <translation>aktuell (lokal)</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>Paste a snapshot or load one from a file to see what it changes.</source>
        <translation>Fügen Sie einen Snapshot ein oder laden Sie einen aus einer Datei, um zu sehen, was er ändert.</translation>
    </message>
    <message>
        <source>This is not a snapshot the desk can read: %1</source>
        <translation>Dies ist kein Snapshot, den der Desk lesen kann: %1</translation>
    </message>
    <message>
        <source>The desk does not hold this subscription: attaching creates it.</source>
        <translation>Der Desk führt dieses Abonnement nicht: Anhängen legt es an.</translation>
    </message>
    <message>
        <source>The snapshot agrees with the desk: attaching records it and changes nothing.</source>
        <translation>Der Snapshot stimmt mit dem Desk überein: Anhängen erfasst ihn und ändert nichts.</translation>
    </message>
    <message>
        <source>Attaching changes %1.</source>
        <translation>Anhängen ändert %1.</translation>
    </message>
    <message>
        <source>Captured %1.</source>
        <translation>Erfasst %1.</translation>
    </message>
    <message>
        <source>Asking the database what happens to case %1…</source>
        <translation>Die Datenbank wird gefragt, was mit Fall %1 geschieht…</translation>
    </message>
    <message>
        <source>The database would refuse it: %1</source>
        <translation>Die Datenbank würde ihn ablehnen: %1</translation>
    </message>
    <message>
        <source>Could not preview the snapshot: %1</source>
        <translation>Vorschau des Snapshots nicht möglich: %1</translation>
    </message>
</context>
<context>
    <name>rd::ui::SnapshotDiff</name>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>not in the desk</source>
        <translation>nicht im Desk</translation>
    </message>
    <message>
        <source>changes</source>
        <translation>ändert sich</translation>
    </message>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>cancels at period end</source>
        <translation>kündigt zum Ende des Zeitraums</translation>
    </message>
    <message>
        <source>period start</source>
        <translation>Beginn des Zeitraums</translation>
    </message>
    <message>
        <source>period end</source>
        <translation>Ende des Zeitraums</translation>
    </message>
    <message>
        <source>provider version</source>
        <translation>Anbieterversion</translation>
    </message>
    <message>
        <source>none (ours is kept)</source>
        <translation>keine (unsere bleibt)</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>keine erfasst</translation>
    </message>
    <message>
        <source>latest renewal</source>
        <translation>letzte Verlängerung</translation>
    </message>
    <message>
        <source>new billing period</source>
        <translation>neuer Abrechnungszeitraum</translation>
    </message>
    <message>
        <source>none in the snapshot</source>
        <translation>keine im Snapshot</translation>
    </message>
</context>
<context>
    <name>rd::ui::SnapshotStart</name>
    <message>
        <source>Renewal Desk&apos;s form, every field present: providerKey, providerSubscriptionId; status (active, trialing, past_due, paused, canceled or incomplete); currentPeriod {&quot;start&quot;, &quot;end&quot;} in RFC 3339, or null; cancelAtPeriodEnd true or false; providerVersion a string (&quot;42&quot;, quoted) or null; capturedAt, when you read it at the provider; latestRenewal: the renewal paid for currentPeriod (the case&apos;s event, same period), or null. Or paste the provider&apos;s own subscription object (Stripe, Paddle).</source>
        <translation>Das Format von Renewal Desk, jedes Feld vorhanden: providerKey, providerSubscriptionId; status (active, trialing, past_due, paused, canceled oder incomplete); currentPeriod {&quot;start&quot;, &quot;end&quot;} in RFC 3339 oder null; cancelAtPeriodEnd true oder false; providerVersion eine Zeichenkette (&quot;42&quot;, in Anführungszeichen) oder null; capturedAt, wann Sie es beim Anbieter gelesen haben; latestRenewal: die für currentPeriod bezahlte Verlängerung (das Ereignis des Falls, gleicher Zeitraum) oder null. Oder fügen Sie das eigene Abonnementobjekt des Anbieters ein (Stripe, Paddle).</translation>
    </message>
</context>
<context>
    <name>rd::ui::StatementImport</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The statement cannot be read: %1</source>
        <translation>Die Abrechnung kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>This statement was imported already, as run %1 by %2 at %3; compared again with today&apos;s ledger:</source>
        <translation>Diese Abrechnung wurde bereits importiert, als Lauf %1 von %2 am %3; erneut mit dem heutigen Hauptbuch verglichen:</translation>
    </message>
    <message>
        <source>Statement run %1</source>
        <translation>Abrechnungslauf %1</translation>
    </message>
    <message>
        <source>complete: every page fetched from the provider&apos;s API in this run</source>
        <translation>vollständig: jede Seite in diesem Lauf über die API des Anbieters abgerufen</translation>
    </message>
    <message>
        <source>complete: every page checked against the fetch&apos;s manifest</source>
        <translation>vollständig: jede Seite gegen das Manifest des Abrufs geprüft</translation>
    </message>
    <message>
        <source>complete as stated by %1 (--pages-complete), not proven</source>
        <translation>vollständig laut %1 (--pages-complete), nicht nachgewiesen</translation>
    </message>
    <message>
        <source>completeness NOT PROVEN (pages without the manifest `statement fetch --save` writes): nothing is looked for as missing from it, and it cannot close a month; import it with its manifest, fetch it, or state --pages-complete</source>
        <translation>Vollständigkeit NICHT NACHGEWIESEN (Seiten ohne das Manifest, das `statement fetch --save` schreibt): es wird nichts als darin fehlend gesucht, und sie kann keinen Monat abschließen; importieren Sie sie mit ihrem Manifest, rufen Sie sie ab, oder erklären Sie --pages-complete</translation>
    </message>
    <message>
        <source>provider %1, paid %2 to %3 (UTC, both included), %4 file(s), %5 object(s)</source>
        <translation>Anbieter %1, bezahlt %2 bis %3 (UTC, beide eingeschlossen), %4 Datei(en), %5 Objekt(e)</translation>
    </message>
    <message>
        <source>renewals in the statement: %1</source>
        <translation>Verlängerungen in der Abrechnung: %1</translation>
    </message>
    <message>
        <source>matched %1, backfilled %2, not applied (cases) %3, differing %4</source>
        <translation>abgeglichen %1, nachgetragen %2, nicht angewendet (Fälle) %3, abweichend %4</translation>
    </message>
    <message>
        <source>objects that could not be read (a case each): %1</source>
        <translation>Objekte, die nicht gelesen werden konnten (je ein Fall): %1</translation>
    </message>
    <message>
        <source>recorded here but not in the statement: %1</source>
        <translation>hier erfasst, aber nicht in der Abrechnung: %1</translation>
    </message>
    <message>
        <source>not looked for (completeness not proven)</source>
        <translation>nicht gesucht (Vollständigkeit nicht nachgewiesen)</translation>
    </message>
    <message>
        <source>totals, statement: %1</source>
        <translation>Summen, Abrechnung: %1</translation>
    </message>
    <message>
        <source>totals, ledger:    %1</source>
        <translation>Summen, Hauptbuch:  %1</translation>
    </message>
    <message>
        <source>%1 is closed for this provider (by %2 at %3): its close report stays as it was</source>
        <translation>%1 ist für diesen Anbieter abgeschlossen (von %2 am %3): sein Abschlussbericht bleibt, wie er war</translation>
    </message>
    <message>
        <source>backfilled after close: %1 (marked &quot;after close&quot; in the Ledger, as any renewal recorded late)</source>
        <translation>nach Abschluss nachgetragen: %1 (im Hauptbuch als „nach Abschluss“ markiert, wie jede spät erfasste Verlängerung)</translation>
    </message>
    <message>
        <source>nothing is left open</source>
        <translation>nichts bleibt offen</translation>
    </message>
    <message>
        <source>open cases: %1</source>
        <translation>offene Fälle: %1</translation>
    </message>
    <message>
        <source>case %1  %2  %3  (subscription %4): %5</source>
        <translation>Fall %1  %2  %3  (Abonnement %4): %5</translation>
    </message>
    <message>
        <source>refunded</source>
        <translation>erstattet</translation>
    </message>
    <message>
        <source>disputed</source>
        <translation>angefochten</translation>
    </message>
    <message>
        <source>money back in the statement: %1 (refunds, disputes and their reversals)</source>
        <translation>Rückzahlungen in der Abrechnung: %1 (Erstattungen, Rückbuchungen und ihre Stornierungen)</translation>
    </message>
    <message>
        <source>money back recorded here but not in the statement: %1</source>
        <translation>Rückzahlungen hier erfasst, aber nicht in der Abrechnung: %1</translation>
    </message>
    <message>
        <source>not looked for (not every money back list is here)</source>
        <translation>nicht gesucht (nicht jede Liste der Rückzahlungen liegt vor)</translation>
    </message>
    <message>
        <source>money back, statement: %1</source>
        <translation>Rückzahlungen, Abrechnung: %1</translation>
    </message>
    <message>
        <source>money back, ledger:    %1</source>
        <translation>Rückzahlungen, Hauptbuch:  %1</translation>
    </message>
    <message>
        <source>Preview, rolled back (a dry run): nothing is kept</source>
        <translation>Vorschau, zurückgerollt (ein Probelauf): Nichts wird behalten</translation>
    </message>
</context>
<context>
    <name>rd::ui::StatementImportDialog</name>
    <message>
        <source>Import provider statement</source>
        <translation>Anbieterabrechnung importieren</translation>
    </message>
    <message>
        <source>The provider&apos;s own list of paid invoices, as its API returns it (one or more pages) or as JSON lines. Each renewal in it is matched with what is recorded; a missing one is recorded through the renewal core; what differs becomes a case.</source>
        <translation>Die eigene Liste bezahlter Rechnungen des Anbieters, wie seine API sie liefert (eine oder mehrere Seiten) oder als JSON-Zeilen. Jede Verlängerung darin wird mit dem Erfassten abgeglichen; eine fehlende wird über den Verlängerungskern erfasst; was abweicht, wird zu einem Fall.</translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation>&amp;Anbieter:</translation>
    </message>
    <message>
        <source>&amp;Add files…</source>
        <translation>Dateien &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Files:</source>
        <translation>Dateien:</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>(UTC days, both included)</source>
        <translation>(UTC-Tage, beide einschließlich)</translation>
    </message>
    <message>
        <source>Days:</source>
        <translation>Tage:</translation>
    </message>
    <message>
        <source>Preview first: it runs the whole import and keeps nothing.</source>
        <translation>Zuerst die Vorschau: Sie führt den gesamten Import aus und behält nichts.</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importieren</translation>
    </message>
    <message>
        <source>Statement files</source>
        <translation>Abrechnungsdateien</translation>
    </message>
    <message>
        <source>Provider lists (*.json *.jsonl);;All files (*)</source>
        <translation>Anbieterlisten (*.json *.jsonl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose the provider.</source>
        <translation>Wählen Sie den Anbieter.</translation>
    </message>
    <message>
        <source>Add the statement&apos;s files.</source>
        <translation>Fügen Sie die Dateien der Abrechnung hinzu.</translation>
    </message>
    <message>
        <source>The first day is after the last.</source>
        <translation>Der erste Tag liegt nach dem letzten.</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>In Arbeit…</translation>
    </message>
    <message numerus="yes">
        <source>Imported. %n case(s) wait in Cases.</source>
        <translation>
            <numerusform>Importiert. %n Fall wartet unter Fälle.</numerusform>
            <numerusform>Importiert. %n Fälle warten unter Fälle.</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported. Nothing is left open.</source>
        <translation>Importiert. Nichts bleibt offen.</translation>
    </message>
    <message>
        <source>Not imported.</source>
        <translation>Nicht importiert.</translation>
    </message>
    <message>
        <source>Only these days:</source>
        <translation>Nur diese Tage:</translation>
    </message>
    <message>
        <source>Unticked: the whole month the statement&apos;s paid days fall in</source>
        <translation>Nicht angekreuzt: der ganze Monat, in den die Zahltage der Abrechnung fallen</translation>
    </message>
    <message>
        <source>The statement covers these days: only renewals paid on them can be &quot;not in the statement&quot;.</source>
        <translation>Die Abrechnung deckt diese Tage ab: Nur an ihnen bezahlte Verlängerungen können „nicht in der Abrechnung“ sein.</translation>
    </message>
    <message>
        <source>The statement covers the whole month its paid days fall in (October&apos;s file: 1 to 31 October); its first to last paid day when they span months.</source>
        <translation>Die Abrechnung deckt den ganzen Monat ab, in den ihre Zahltage fallen (die Datei für Oktober: 1. bis 31. Oktober); vom ersten bis zum letzten Zahltag, wenn sie mehrere Monate umfassen.</translation>
    </message>
</context>
<context>
    <name>rd::ui::StatementsDialog</name>
    <message>
        <source>Statements</source>
        <translation>Abrechnungen</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Days (UTC)</source>
        <translation>Tage (UTC)</translation>
    </message>
    <message>
        <source>Imported by</source>
        <translation>Importiert von</translation>
    </message>
    <message>
        <source>Imported at</source>
        <translation>Importiert am</translation>
    </message>
    <message>
        <source>Renewals</source>
        <translation>Verlängerungen</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Abgeglichen</translation>
    </message>
    <message>
        <source>Backfilled</source>
        <translation>Nachgetragen</translation>
    </message>
    <message>
        <source>Unapplied</source>
        <translation>Nicht angewendet</translation>
    </message>
    <message>
        <source>Differing</source>
        <translation>Abweichend</translation>
    </message>
    <message>
        <source>Not in statement</source>
        <translation>Nicht in der Abrechnung</translation>
    </message>
    <message>
        <source>Open cases at import</source>
        <translation>Offene Fälle beim Import</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Case status</source>
        <translation>Fallstatus</translation>
    </message>
    <message>
        <source>Enter or a double click opens the finding&apos;s case, else its subscription</source>
        <translation>Eingabe oder ein Doppelklick öffnet den Fall des Befunds, sonst sein Abonnement</translation>
    </message>
    <message>
        <source>&amp;Import statement…</source>
        <translation>Abrechnung &amp;importieren…</translation>
    </message>
    <message>
        <source>Reading the statement runs…</source>
        <translation>Die Abrechnungsläufe werden gelesen…</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>No statement was imported yet (renewalctl statement import).</source>
        <translation>Es wurde noch keine Abrechnung importiert (renewalctl statement import).</translation>
    </message>
    <message numerus="yes">
        <source>%n statement run(s). Select one for its findings.</source>
        <translation>
            <numerusform>%n Abrechnungslauf. Wählen Sie einen für seine Befunde.</numerusform>
            <numerusform>%n Abrechnungsläufe. Wählen Sie einen für seine Befunde.</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading the findings of run %1…</source>
        <translation>Die Befunde von Lauf %1 werden gelesen…</translation>
    </message>
    <message>
        <source>Run %1: the first %2 findings, those with a case first.</source>
        <translation>Lauf %1: die ersten %2 Befunde, die mit einem Fall zuerst.</translation>
    </message>
    <message numerus="yes">
        <source>Run %1: %n finding(s). Enter opens a finding&apos;s case, else its subscription.</source>
        <translation>
            <numerusform>Lauf %1: %n Befund. Eingabe öffnet den Fall eines Befunds, sonst sein Abonnement.</numerusform>
            <numerusform>Lauf %1: %n Befunde. Eingabe öffnet den Fall eines Befunds, sonst sein Abonnement.</numerusform>
        </translation>
    </message>
    <message>
        <source>a statement finding</source>
        <translation>ein Befund der Abrechnung</translation>
    </message>
    <message>
        <source>Case %1 · %2</source>
        <translation>Fall %1 · %2</translation>
    </message>
    <message>
        <source>Subscription %1 (renewal %2)</source>
        <translation>Abonnement %1 (Verlängerung %2)</translation>
    </message>
    <message>
        <source>Line %1 has no case, and subscription %2 is not known here.</source>
        <translation>Zeile %1 hat keinen Fall, und das Abonnement %2 ist hier nicht bekannt.</translation>
    </message>
    <message>
        <source>Money back</source>
        <translation>Rückzahlung</translation>
    </message>
    <message>
        <source>Money back missing</source>
        <translation>Fehlende Rückzahlungen</translation>
    </message>
</context>
<context>
    <name>rd::ui::SubscriptionDetail</name>
    <message>
        <source>after its month was closed</source>
        <translation>nach dem Abschluss ihres Monats</translation>
    </message>
</context>
<context>
    <name>rd::ui::SubscriptionDetailWidget</name>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>published</source>
        <translation>veröffentlicht</translation>
    </message>
    <message>
        <source>failed, retrying</source>
        <translation>fehlgeschlagen, wird wiederholt</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Bezahlt</translation>
    </message>
    <message>
        <source>Renewal key</source>
        <translation>Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Paid at</source>
        <translation>Bezahlt am</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Erfasst von</translation>
    </message>
    <message>
        <source>Provider event</source>
        <translation>Anbieterereignis</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Transition</source>
        <translation>Übergang</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Database role</source>
        <translation>Datenbankrolle</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>Does not verify: %1</source>
        <translation>Nicht bestätigt: %1</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Intent</source>
        <translation>Auftrag</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Veröffentlicht</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Seen</source>
        <translation>Gesehen</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Klärung</translation>
    </message>
    <message>
        <source>Billing periods</source>
        <translation>Abrechnungszeiträume</translation>
    </message>
    <message>
        <source>Audit trail</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>Outbox</source>
        <translation>Postausgang</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Fälle</translation>
    </message>
    <message>
        <source>Select a subscription.</source>
        <translation>Wählen Sie ein Abonnement aus.</translation>
    </message>
    <message>
        <source>✗ The record at position %1 does not verify: %2</source>
        <translation>✗ Der Eintrag an Position %1 lässt sich nicht bestätigen: %2</translation>
    </message>
    <message>
        <source>✗ The record at position %1 does not verify: %2. It is not among the %3 newest listed here (removed, or older: the Audit log filtered to this subscription lists every one).</source>
        <translation>✗ Der Eintrag an Position %1 lässt sich nicht bestätigen: %2. Er ist nicht unter den %3 neuesten, die hier aufgeführt sind (entfernt oder älter: Das auf dieses Abonnement gefilterte Prüfprotokoll führt jeden auf).</translation>
    </message>
    <message>
        <source>before</source>
        <translation>vor</translation>
    </message>
    <message>
        <source>after</source>
        <translation>nach</translation>
    </message>
    <message>
        <source>rejected%1 · case %2</source>
        <translation>abgelehnt%1 · Fall %2</translation>
    </message>
    <message>
        <source>Rejected, waiting in case %1: %2</source>
        <translation>Abgelehnt, wartet in Fall %1: %2</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>current period</source>
        <translation>aktueller Zeitraum</translation>
    </message>
    <message>
        <source>Current period %1, no billing period recorded for it</source>
        <translation>Aktueller Zeitraum %1, kein Abrechnungszeitraum dafür erfasst</translation>
    </message>
    <message>
        <source>current period &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>aktueller Zeitraum &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>cancels at period end</source>
        <translation>kündigt zum Ende des Zeitraums</translation>
    </message>
    <message>
        <source>renews automatically</source>
        <translation>verlängert sich automatisch</translation>
    </message>
    <message>
        <source>revision %1</source>
        <translation>Revision %1</translation>
    </message>
    <message numerus="yes">
        <source>%n open case(s)</source>
        <translation>
            <numerusform>%n offener Fall</numerusform>
            <numerusform>%n offene Fälle</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n gap(s)/overlap(s) in paid periods</source>
        <translation>
            <numerusform>%n Lücke/Überschneidung in bezahlten Zeiträumen</numerusform>
            <numerusform>%n Lücken/Überschneidungen in bezahlten Zeiträumen</numerusform>
        </translation>
    </message>
    <message>
        <source>Billing periods (latest %1)</source>
        <translation>Abrechnungszeiträume (neueste %1)</translation>
    </message>
    <message>
        <source>Billing periods (%1)</source>
        <translation>Abrechnungszeiträume (%1)</translation>
    </message>
    <message>
        <source>Audit trail (%1)</source>
        <translation>Prüfprotokoll (%1)</translation>
    </message>
    <message>
        <source>Outbox (%1)</source>
        <translation>Postausgang (%1)</translation>
    </message>
    <message>
        <source>Cases (%1 open)</source>
        <translation>Fälle (%1 offen)</translation>
    </message>
    <message>
        <source>Cases (%1)</source>
        <translation>Fälle (%1)</translation>
    </message>
    <message>
        <source>Money back</source>
        <translation>Rückzahlungen</translation>
    </message>
    <message>
        <source>%1 (net %2)</source>
        <translation>%1 (netto %2)</translation>
    </message>
    <message>
        <source>Money back minor units</source>
        <translation>Rückzahlungen in kleinsten Einheiten</translation>
    </message>
</context>
<context>
    <name>rd::ui::SubscriptionsModel</name>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>Internal id %1</source>
        <translation>Interne ID %1</translation>
    </message>
    <message>
        <source>Internal id</source>
        <translation>Interne ID</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Cancels at end</source>
        <translation>Kündigung</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>Current period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Last renewal</source>
        <translation>Verlängert am</translation>
    </message>
    <message>
        <source>Paid %1 · renewal key %2</source>
        <translation>Bezahlt %1 · Verlängerungsschlüssel %2</translation>
    </message>
    <message>
        <source>Last renewal key</source>
        <translation>Letzter Verlängerungsschlüssel</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>Open cases</source>
        <translation>Offene Fälle</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a status; one of: %2</source>
        <translation>„%1“ ist kein Status; einer von: %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a date: write it as YYYY-MM-DD</source>
        <translation>„%1“ ist kein Datum: Schreiben Sie es als JJJJ-MM-TT</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>trialing</source>
        <translation>Testphase</translation>
    </message>
    <message>
        <source>past_due</source>
        <translation>Zahlung überfällig</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>canceled</source>
        <translation>gekündigt</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>unvollständig</translation>
    </message>
</context>
<context>
    <name>rd::ui::SubscriptionsPage</name>
    <message>
        <source>Open cases only</source>
        <translation>Nur offene Fälle</translation>
    </message>
    <message>
        <source>Overdue</source>
        <translation>Überfällig</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>Alle Anbieter</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Active subscriptions whose period ended more than the grace ago with no renewal recorded since, not set to cancel: the payment failed at the provider or its renewal never reached us.</source>
        <translation>Aktive Abonnements, deren Zeitraum vor mehr als der Kulanzfrist endete, ohne dass seitdem eine Verlängerung erfasst wurde, und die nicht zur Kündigung vorgemerkt sind: Die Zahlung ist beim Anbieter fehlgeschlagen oder ihre Verlängerung hat uns nie erreicht.</translation>
    </message>
    <message>
        <source>How long after a period end a subscription without its renewal counts as overdue, for every provider; kept for this desk. Each provider&apos;s own: 24 hours unless set with &apos;renewalctl providers set-grace&apos;.</source>
        <translation>Wie lange nach dem Ende eines Zeitraums ein Abonnement ohne Verlängerung als überfällig gilt, für jeden Anbieter; für diesen Desk gespeichert. Die eigene des Anbieters: 24 Stunden, sofern nicht mit „renewalctl providers set-grace“ gesetzt.</translation>
    </message>
    <message>
        <source>Grace: each provider&apos;s</source>
        <translation>Kulanzfrist: je Anbieter</translation>
    </message>
    <message>
        <source>Grace: %1 h</source>
        <translation>Kulanzfrist: %1 h</translation>
    </message>
    <message>
        <source>Find id or part of it…  (Ctrl+F)</source>
        <translation>ID oder einen Teil davon suchen…  (Strg+F)</translation>
    </message>
    <message>
        <source>Lists the subscriptions whose id contains what you type or paste (one or two characters: ids that start with them). Return opens the first match.</source>
        <translation>Listet die Abonnements, deren ID enthält, was Sie eingeben oder einfügen (ein oder zwei Zeichen: IDs, die damit beginnen). Eingabe öffnet den ersten Treffer.</translation>
    </message>
    <message>
        <source>Go to provider or provider/id…  (Ctrl+G)</source>
        <translation>Gehe zu Anbieter oder Anbieter/ID…  (Strg+G)</translation>
    </message>
    <message>
        <source>Go to status…  (Ctrl+G)</source>
        <translation>Gehe zu Status…  (Strg+G)</translation>
    </message>
    <message>
        <source>Go to period end on or before YYYY-MM-DD…  (Ctrl+G)</source>
        <translation>Gehe zu Zeitraumende am oder vor JJJJ-MM-TT…  (Strg+G)</translation>
    </message>
    <message>
        <source>Go to period end on or after YYYY-MM-DD…  (Ctrl+G)</source>
        <translation>Gehe zu Zeitraumende am oder nach JJJJ-MM-TT…  (Strg+G)</translation>
    </message>
    <message>
        <source>Starts the list at this position of the current sort order; clear it to start from the beginning again.</source>
        <translation>Beginnt die Liste an dieser Position der aktuellen Sortierung; leeren Sie das Feld, um wieder von vorn zu beginnen.</translation>
    </message>
    <message>
        <source>This subscription no longer exists.</source>
        <translation>Dieses Abonnement existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Could not load the subscription: %1</source>
        <translation>Das Abonnement konnte nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 angezeigt</translation>
    </message>
    <message>
        <source>%1 loaded, more as you scroll</source>
        <translation>%1 geladen, mehr beim Scrollen</translation>
    </message>
    <message>
        <source>from %1: </source>
        <translation>ab %1: </translation>
    </message>
    <message>
        <source>about %1 in all</source>
        <translation>etwa %1 insgesamt</translation>
    </message>
    <message>
        <source>Provider: %1</source>
        <translation>Anbieter: %1</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>Status: %1</translation>
    </message>
    <message>
        <source>Id contains: %1</source>
        <translation>ID enthält: %1</translation>
    </message>
    <message>
        <source>Id starts with: %1</source>
        <translation>ID beginnt mit: %1</translation>
    </message>
    <message>
        <source>From: %1</source>
        <translation>Ab: %1</translation>
    </message>
    <message>
        <source>Filters cleared to show %1: they hid it.</source>
        <translation>Filter entfernt, um %1 zu zeigen: Sie haben es verborgen.</translation>
    </message>
</context>
<context>
    <name>rd::ui::TableView</name>
    <message>
        <source>Export CSV</source>
        <translation>CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Exporting every row of the list to %1…</source>
        <translation>Jede Zeile der Liste wird nach %1 exportiert…</translation>
    </message>
    <message>
        <source>Exported %1 rows to %2</source>
        <translation>%1 Zeilen nach %2 exportiert</translation>
    </message>
    <message>
        <source>Could not export to %1: %2</source>
        <translation>Export nach %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
</context>
<context>
    <name>rd::ui::TimelineWidget</name>
    <message>
        <source>Not paid: %1 between the current period&apos;s end and the rejected renewal&apos;s start (%2)</source>
        <translation>Nicht bezahlt: %1 zwischen dem Ende des aktuellen Zeitraums und dem Beginn der abgelehnten Verlängerung (%2)</translation>
    </message>
    <message>
        <source>The rejected renewal starts before the current period ends: %1 (%2)</source>
        <translation>Die abgelehnte Verlängerung beginnt, bevor der aktuelle Zeitraum endet: %1 (%2)</translation>
    </message>
    <message>
        <source>Not paid: %1 between two paid periods (%2)</source>
        <translation>Nicht bezahlt: %1 zwischen zwei bezahlten Zeiträumen (%2)</translation>
    </message>
    <message>
        <source>Paid twice: %1 where two paid periods overlap (%2)</source>
        <translation>Doppelt bezahlt: %1, in denen sich zwei bezahlte Zeiträume überschneiden (%2)</translation>
    </message>
    <message>
        <source>paid period</source>
        <translation>bezahlter Zeitraum</translation>
    </message>
    <message>
        <source>rejected renewal (open case)</source>
        <translation>abgelehnte Verlängerung (offener Fall)</translation>
    </message>
    <message>
        <source>gap / overlap</source>
        <translation>Lücke / Überschneidung</translation>
    </message>
    <message>
        <source>paid</source>
        <translation>bezahlt</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>gap/overlap</source>
        <translation>Lücke/Überschneidung</translation>
    </message>
    <message>
        <source>No billing periods yet</source>
        <translation>Noch keine Abrechnungszeiträume</translation>
    </message>
    <message>
        <source>current period</source>
        <translation>aktueller Zeitraum</translation>
    </message>
    <message>
        <source>Current period %1</source>
        <translation>Aktueller Zeitraum %1</translation>
    </message>
</context>
</TS>
