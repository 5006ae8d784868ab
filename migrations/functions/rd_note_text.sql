REVOKE ALL ON FUNCTION public.rd_note_text(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_note_text(text) TO renewal_viewer;

-- The note without its invisible ends, or NULL when nothing visible is left. Invisible:
-- control characters, Unicode's White_Space, its Default_Ignorable_Code_Point (zero-width
-- spaces and joiners, bidi marks, variation selectors, tags, soft hyphen, Hangul fillers)
-- and the braille blank. Keep in step with rd::isInvisibleCodePoint.
CREATE OR REPLACE FUNCTION public.rd_note_text(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    -- A text of invisible code points only is one leading run: trimmed to '', then NULL.
    RETURN NULLIF(pg_catalog.regexp_replace(p_text,
        '^[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+|[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+$',
        '', 'g'), '');
