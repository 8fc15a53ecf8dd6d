-- Two-phase upload (routes/upload.py): the job of an uploaded file.

-- name: job_of_key
SELECT j.id FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
 WHERE d.slug = %(dmo)s AND j.source_key = %(key)s;

-- name: dmo_active
-- A deactivated DMO takes no upload until it is active again (as its inbox and schedule wait).
SELECT active FROM public.dmos WHERE slug = %(dmo)s;
