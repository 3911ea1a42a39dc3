-- A booking that is one of a standing weekly series booked in one step (docs/product.md#standing-weekly-sessions).
ALTER TABLE "bookings" ADD COLUMN "series_id" uuid;