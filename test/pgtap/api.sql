-- The SQL API: every function's signature, volatility, strictness and
-- parallel safety are part of the contract (generators VOLATILE PARALLEL
-- SAFE; pure functions IMMUTABLE STRICT PARALLEL SAFE).
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE SCHEMA uuidx;
CREATE EXTENSION pg_uuidx SCHEMA uuidx;

CREATE TEMP TABLE api (fn text, args text[], volatility text, strict boolean);
INSERT INTO api VALUES
    ('uuidv7', '{}', 'volatile', false),
    ('uuidv7', '{interval}', 'volatile', true),
    ('uuidv4', '{}', 'volatile', false);

SELECT plan((SELECT count(*)::int * 4 + 1 FROM api));

SELECT has_function('uuidx', fn, args, fn || '(' || array_to_string(args, ', ') || ') exists')
FROM api;
SELECT volatility_is('uuidx', fn, args, volatility, fn || '(' || array_to_string(args, ', ') || ') is ' || volatility)
FROM api;
SELECT is(p.proisstrict, a.strict, a.fn || '(' || array_to_string(a.args, ', ') || ') strictness')
FROM api AS a
JOIN pg_proc AS p ON p.oid = ('uuidx.' || a.fn || '(' || array_to_string(a.args, ', ') || ')')::regprocedure;
SELECT is(p.proparallel, 's', a.fn || '(' || array_to_string(a.args, ', ') || ') is PARALLEL SAFE')
FROM api AS a
JOIN pg_proc AS p ON p.oid = ('uuidx.' || a.fn || '(' || array_to_string(a.args, ', ') || ')')::regprocedure;

-- nothing more and nothing less than the table above is installed
SELECT set_eq(
    $$ SELECT p.proname::text || '(' || pg_get_function_identity_arguments(p.oid) || ')'
       FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
       JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx' $$,
    $$ SELECT fn || '(' || coalesce((SELECT string_agg(
              CASE a WHEN 'interval' THEN 'shift interval' ELSE a END, ', ') FROM unnest(args) a), '') || ')'
       FROM api $$,
    'the extension installs exactly the documented functions');

SELECT * FROM finish();
ROLLBACK;
