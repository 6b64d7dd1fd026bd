"""Running corrmail as a service: logging, the gunicorn front, security headers and login
throttling, backups. Nothing here knows a rule of the rulebook; it keeps the service honest."""
