-- The app's audit trail (web/audit.py).

-- name: add
INSERT INTO pipeline.web_audit (user_name, action, target, detail)
VALUES (%(user)s, %(action)s, %(target)s, %(detail)s);

-- name: of_target
SELECT at, user_name, action, target, detail FROM pipeline.web_audit
 WHERE target = %(target)s ORDER BY at DESC, id DESC LIMIT %(limit)s;
