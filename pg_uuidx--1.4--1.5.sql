/* pg_uuidx--1.4--1.5.sql: update from 1.4 to 1.5 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.5'" to load this file. \quit
