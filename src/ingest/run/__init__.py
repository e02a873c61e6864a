"""Running the pipeline: what a stage's output depends on (`identity`), the stage cache
(`cache`), batches through the stages (`batches`), staged rows (`staging`), loading them
(`loading`), the report's cached data (`report_cache`), retryable faults (`faults`) and
the run itself (`runner`)."""
