-- Accent-blind name search (chat.contacts: "Joao" finds "João"). unaccent ships with PostgreSQL's
-- contrib (Debian's server, the embedded-postgres binaries, the official Docker image) and is a
-- trusted extension since PostgreSQL 13, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS unaccent;
