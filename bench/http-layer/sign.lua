-- wrk script: POSTs one pre-signed delivery. run.sh computes the Stripe-Signature once
-- (openssl dgst -sha256 -hmac over "t.body") and passes body and header in the environment.
wrk.method = "POST"
wrk.body = os.getenv("PROBE_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Stripe-Signature"] = os.getenv("PROBE_SIG")
