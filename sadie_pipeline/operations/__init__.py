"""Operations: what keeps the platform healthy over months (issue 19): dead letters listed and
requeued, a Slack alert when a layer's open dead letters pile up, and retention (old rows archived
to the object store, then deleted)."""
