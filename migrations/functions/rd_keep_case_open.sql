REVOKE ALL ON FUNCTION public.rd_keep_case_open(bigint,text,jsonb)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- A locked open case whose renewal was judged again and still fails: it keeps the state it was
-- judged against, and the reason it fails now (unless another open case already holds this
-- renewal with that reason, when the reason stays and the history says it).
CREATE OR REPLACE FUNCTION public.rd_keep_case_open(p_case_id bigint, p_error_code text,
                                         p_local_state jsonb) RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    UPDATE public.reconciliation_cases c
       SET local_state = p_local_state,
           error_code = CASE WHEN p_error_code IS NULL OR EXISTS (
                                 SELECT 1 FROM public.reconciliation_cases o
                                  WHERE o.status = 'open' AND o.id <> c.id
                                    AND o.provider_key = c.provider_key
                                    AND o.provider_renewal_key = c.provider_renewal_key
                                    AND o.event_fingerprint = c.event_fingerprint
                                    AND o.error_code = p_error_code)
                             THEN c.error_code ELSE p_error_code END
     WHERE c.id = p_case_id;
END;
