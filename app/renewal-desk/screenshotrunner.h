#pragma once

#include <QString>

namespace rd::ui {
class MainWindow;
}

/// `renewal-desk --screenshot DIR`: shows each main view of `window` in turn, lets it load, and
/// renders it to DIR/<view>.png (QWidget::grab): subscriptions.png (the first subscription with
/// an open case selected), subscription-audit.png (its audit trail), cases.png (the most
/// repeated payload conflict), cases-gap.png (the most repeated period that does not
/// continue), inbox.png, inbox-delivery.png (an opened delivery: a rejected one when there is one),
/// inbox-delivery-hex.png (a body that is not JSON, when there is one), outbox.png,
/// payment-trouble.png, payment-trouble-extend.png (the Extend grace dialog, not accepted) and
/// subscription-payment-trouble.png (the first subscription in trouble, its audit trail). False
/// when a file could not be written.
bool saveScreenshots(rd::ui::MainWindow &window, const QString &dir);
