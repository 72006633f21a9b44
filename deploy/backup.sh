#!/usr/bin/env bash
# Backups of Entreno, both modes (docs/deploy.md, "Backup and restore"). Exercised by
# tests/integration/backup-restore.test.ts.
#
# Scaled (DATABASE_URL): the database holds everything — data, photos (PHOTO_STORE=database) and the
# generated secrets — so one pg_dump is the whole backup. Nodes may keep running.
#   DATABASE_URL=postgres://… deploy/backup.sh dump <file.dump>
#   DATABASE_URL=postgres://… deploy/backup.sh restore-dump <file.dump>     (into an empty database)
#
# Embedded (no DATABASE_URL): DATA_DIR holds everything — the database, photos, secrets.json and
# vapid.json. Archive it while the node is stopped (a copy of a running database is not consistent).
#   deploy/backup.sh archive <DATA_DIR> <file.tar.gz>
#   deploy/backup.sh restore-archive <file.tar.gz> <DATA_DIR>             (DATA_DIR new or empty)
set -euo pipefail

usage() {
  sed -n '2,14p' "$0" >&2
  exit 2
}
need_url() {
  if [ -z "${DATABASE_URL:-}" ]; then
    echo "DATABASE_URL: required for $1" >&2
    exit 2
  fi
}

command="${1:-}"
case "$command" in
  dump)
    [ $# -eq 2 ] || usage
    need_url dump
    # Custom format: compressed, restorable table by table, the photos' bytea included.
    pg_dump --format=custom --no-owner --no-privileges --file="$2" "$DATABASE_URL"
    echo "dump: $2"
    ;;
  restore-dump)
    [ $# -eq 2 ] || usage
    need_url restore-dump
    pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$DATABASE_URL" "$2"
    echo "restored $2 into the database at DATABASE_URL; start the nodes"
    ;;
  archive)
    [ $# -eq 3 ] || usage
    data_dir="$2"
    [ -d "$data_dir" ] || { echo "DATA_DIR: $data_dir is not a directory" >&2; exit 2; }
    # The embedded PostgreSQL leaves postmaster.pid while it runs.
    if [ -n "$(find "$data_dir" -name postmaster.pid -print -quit)" ]; then
      echo "$data_dir: the embedded database is running; stop the node first (SIGTERM)" >&2
      exit 1
    fi
    tar --create --gzip --file="$3" --directory="$data_dir" .
    echo "archive: $3"
    ;;
  restore-archive)
    [ $# -eq 3 ] || usage
    data_dir="$3"
    if [ -d "$data_dir" ] && [ -n "$(ls -A "$data_dir")" ]; then
      echo "DATA_DIR: $data_dir is not empty; restore into a new directory" >&2
      exit 1
    fi
    mkdir -p "$data_dir"
    # The archive's "." entry brings back DATA_DIR's own owner and mode.
    tar --extract --gzip --file="$2" --directory="$data_dir"
    echo "restored $2 into $data_dir; start the node with DATA_DIR=$data_dir"
    ;;
  *)
    usage
    ;;
esac
