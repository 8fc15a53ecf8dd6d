"""The review and operations web app (issue 18): FastAPI pages (Jinja2 + htmx, vendored JS/CSS) over
the listings and hotel domains, users and permissions, and the JSON API. `sadie web` serves it."""
