-- The console overview reads the ledger by UTC day (docs/product.md#the-overview): an index on when each ledger transaction was written.
CREATE INDEX "ledger_transactions_created_idx" ON "ledger_transactions" USING btree ("created_at");
