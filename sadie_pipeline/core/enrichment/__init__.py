"""Hotel-lead enrichment layers as pure logic (no Dagster, no network, no database).

Seed 000 ("Stage 3: Enrich": room count, proximity, research) and seed 001 (independent layers
tracked in a ``layers_completed`` bitmask, idempotent merges, decision makers, confidence).
The assets under ``sadie_pipeline/hotels/enrichment/`` fetch, call these functions and write.

Modules:

* ``layers``       bitmask constants, required layers for "enriched", dependencies, run decisions
* ``confidence``   the seed's base confidence per source and its modifiers
* ``room_count``   regex fallback and the Groq prompt/answer contract for a hotel's room count
* ``proximity``    haversine, a grid index over attractions, nearest attraction and counts by radius
* ``research``     the Anthropic structured-output contract (schema, tool, request) and its parser
* ``contacts``     people, titles, e-mails and phones from contact/about/team pages; links to follow
* ``names``        person names and job titles: splitting, match keys, generic titles, title ranks
* ``emails_phones`` e-mail and phone finding: plain, obfuscated, Cloudflare; generic mailboxes
* ``page_extract`` HTML to text lines; people (name + title) in lines and team cards
* ``dns_email``    e-mail provider from MX hosts, SPF and DMARC parsing
* ``rdap``         RDAP (RFC 9083) domain responses: registrant, registrar, dates, privacy
* ``email_verify`` verification without SMTP: syntax, MX, free/disposable/role, pattern guesses
* ``merge``        the seed's COALESCE / OR / DISTINCT / GREATEST rules and decision-maker upserts
"""
