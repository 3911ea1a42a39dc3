-- Every write to what people's own reads show of bookings and weekly hours (their bookings, a trainer's weekly hours and free slots) is announced on `spotter_personal` with the ids of the accounts it concerns, whoever makes it (a route, a job, a payment webhook, SQL by hand): each process drops those cached answers once the write commits (docs/decisions/024-personal-read-cache.md). A transaction's identical payloads are delivered once. Messages need no trigger: each one is announced on `spotter_chat` already, with both accounts.
CREATE FUNCTION spotter_personal_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'availability' THEN
    PERFORM pg_notify('spotter_personal', r.trainer_id::text);
  ELSE
    PERFORM pg_notify('spotter_personal', r.user_id::text || ',' || r.trainer_id::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER bookings_personal_notify AFTER INSERT OR UPDATE OR DELETE ON "bookings" FOR EACH ROW EXECUTE FUNCTION spotter_personal_notify();--> statement-breakpoint
CREATE TRIGGER availability_personal_notify AFTER INSERT OR UPDATE OR DELETE ON "availability" FOR EACH ROW EXECUTE FUNCTION spotter_personal_notify();
