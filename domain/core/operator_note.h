#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// Why an operator acts: a reason code (lower case, e.g. "provider_confirmed") and a comment.
struct OperatorNote
{
    std::string reason;
    std::string comment;
};

/// The reason codes the desk offers and the CLI accepts; the database accepts these and no
/// other (public.operator_reason_codes, migrations/0010_operator_reasons.sql; a test checks
/// they agree).
const std::vector<std::string> &standardReasonCodes();

/// Whether a code point shows nothing: a control character, Unicode's White_Space, its
/// Default_Ignorable_Code_Point (zero-width spaces and joiners, bidi marks, variation
/// selectors, tags, the soft hyphen, Hangul fillers) or the braille blank. The same set as the
/// database's rd_note_text (migration 0027); tst_security compares them over every code point.
bool isInvisibleCodePoint(char32_t c);

/// Whether a note (UTF-8) has something to read: at least one code point that is not
/// invisible. A tab, a no-break space or a zero-width space is not a note. Bytes that are not
/// UTF-8 count as visible: the database refuses such text anyway, with its own message.
bool hasVisibleText(std::string_view utf8);

} // namespace rd
