/* pg_uuidx--1.2--1.3.sql: update from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.3'" to load this file. \quit

-- 1.3 changes the C library only (see CHANGELOG.md); no SQL object changes.
