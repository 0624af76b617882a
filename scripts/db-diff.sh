#!/usr/bin/env sh
# Prints the SQL that takes a database migrated with prisma/migrations to the schema in
# prisma/schema/ — what a new migration folder should contain. Review it before committing it.
# Needs a PostgreSQL it may create a scratch (shadow) database on: DATABASE_URL, else the
# machine's server on 127.0.0.1:5432.
#   scripts/db-diff.sh > prisma/migrations/<yyyymmddhhmmss>_<name>/migration.sql
set -eu
cd "$(dirname "$0")/.."
: "${DATABASE_URL:=postgresql://postgres@127.0.0.1:5432/postgres}"
export DATABASE_URL
exec node node_modules/prisma/build/index.js migrate diff \
  --from-migrations prisma/migrations --to-schema-datamodel prisma/schema --script "$@"
