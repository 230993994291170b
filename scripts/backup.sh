#!/usr/bin/env bash
# Jink's backup: one pg_dump of the database DATABASE_URL names, then the retention applied.
#
# What it does: writes "$BACKUP_DIR/jink-<UTC time>.dump" (pg_dump's custom format, -Fc:
# compressed, restored with pg_restore, one table at a time if need be), first as a ".partial"
# file renamed only when pg_dump succeeded, so a failed or interrupted run never leaves a file
# that looks like a backup; then runs scripts/prune_backups.py on the folder (7 daily, 5 weekly,
# 12 monthly: docs/operations.md, "Backups"), unless JINK_BACKUP_PRUNE=false.
#
# What it does not do: restore (scripts/restore.py), copy the file off the machine (the
# operator's off-site copy, docs/operations.md), or back up Redis (it holds nothing that is not
# rebuilt from the database: the broker's messages are re-queued by the outbox sweep).
#
# Environment: DATABASE_URL (postgres://user[:password]@host[:port]/name; read from .env when
# unset), BACKUP_DIR (default: backups), JINK_BACKUP_PRUNE (default: true).
# Usage: scripts/backup.sh        (make backup)
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ -z "${DATABASE_URL:-}" && -f .env ]]; then
	DATABASE_URL="$(sed -n 's/^DATABASE_URL=//p' .env | tail -n 1 | tr -d "\"'")"
fi
if [[ -z "${DATABASE_URL:-}" ]]; then
	echo "backup: set DATABASE_URL (the PostgreSQL database to back up)" >&2
	exit 2
fi
case "$DATABASE_URL" in
	postgres://* | postgresql://*) ;;
	*)
		echo "backup: DATABASE_URL is not a PostgreSQL URL; only PostgreSQL is backed up" >&2
		exit 2
		;;
esac

folder="${BACKUP_DIR:-backups}"
mkdir -p "$folder"
name="jink-$(date -u +%Y%m%dT%H%M%SZ).dump"
partial="$folder/$name.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --file="$partial" --dbname="$DATABASE_URL"
mv "$partial" "$folder/$name"
trap - EXIT
echo "backup: $folder/$name ($(du -h "$folder/$name" | cut -f1))"

if [[ "${JINK_BACKUP_PRUNE:-true}" != "false" ]]; then
	python="${PYTHON:-.venv/bin/python}"
	[[ -x "$python" ]] || python=python3
	"$python" scripts/prune_backups.py "$folder"
fi
