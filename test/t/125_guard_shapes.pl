# The shapes of table where pg_uuidx_horizon_guard() let a row in below a
# reader's position, each against a reader
# of pg_uuidx_read_after() that has read the table's rows first:
#
# - row 5: a guard on a generated id column saw NULL and let an hour-old id
#   in.  CREATE TRIGGER refuses it, and so does each firing (42P17); on
#   18+ for a virtual column too.
# - row 6: a guard declared BEFORE INSERT only, or UPDATE OF id, never
#   fired on the UPDATE that moves an id back (and one after the row whose
#   WHEN condition is not the cover never fires: its reader refuses to
#   read); a BEFORE trigger that fires
#   after the guard (triggers fire in name order) changed the id the guard
#   had checked; a table that inherits from a guarded one got none of its
#   triggers.  Each is refused (42P17), by CREATE TRIGGER or CREATE TABLE,
#   and at each firing.
# - row 7: ALTER TABLE ... ATTACH PARTITION of a filled table, and ALTER
#   TABLE ... INHERIT, put its rows below the reader: they are covered as if
#   inserted now, so an hour-old id refuses the DDL (40001).
# - row 15: an idempotent re-send (ON CONFLICT) of a stored row was refused
#   with 40001: it passes when a unique index holds the id in a committed
#   row, which stays locked until the re-sending transaction ends; a
#   writer of the key still in progress is waited for.
#
# Each check fails against the guard of 970e263 (the rows were taken, and
# missed) and passes from the fix on.  The allowance is 0, so that a
# reader reads up to the clock.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);

my $node = new_node('shapes', conf => ["pg_uuidx.horizon_allowance = 0"]);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# before 17 the shared state needs the preloaded library
if ($major < 17)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	# started as new_node() starts it (the sanitizer's runtime for memcheck)
	$node->stop;
	start_with_env($node);
}
create_try($node, 'postgres');
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
-- q run with the check of pg_uuidx_guard_ddl() off (a superuser can turn
-- it off), to make the guards that only firings then refuse
CREATE FUNCTION unchecked(q text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM pg_event_trigger WHERE evtname = 'pg_uuidx_guard_ddl') THEN
        ALTER EVENT TRIGGER pg_uuidx_guard_ddl DISABLE;
        EXECUTE q;
        ALTER EVENT TRIGGER pg_uuidx_guard_ddl ENABLE;
    ELSE
        EXECUTE q;
    END IF;
END $$;
});

sub try
{
	my ($q) = @_;
	return $node->safe_psql('postgres', "SELECT try(\$q\$$q\$q\$)");
}

sub guard
{
	my ($name, $table, $how) = @_;
	return "CREATE TRIGGER $name BEFORE " . ($how || 'INSERT OR UPDATE')
	  . " ON $table FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard()";
}

# the guard of guard() made all the same, with the check of CREATE TRIGGER
# off (or made again, where that check let it be made)
sub unchecked_guard
{
	my ($name, $table, $how) = @_;
	$node->safe_psql('postgres',
		"SELECT unchecked(\$q\$DROP TRIGGER IF EXISTS $name ON $table; @{[ guard($name, $table, $how) ]}\$q\$)");
	return;
}

# A reader of each table: what it read, and the last id
my %read;

# one read of $table up to the horizon, after 50 ms (the allowance is 0:
# the horizon reaches what committed before)
sub poll
{
	my ($table) = @_;
	sleep(0.05);
	my $r = $read{$table} ||= { ids => {}, last => undef };
	my $after = defined $r->{last} ? "'$r->{last}'" : 'NULL';
	for my $id (grep { $_ ne '' } split /\n/,
		$node->safe_psql('postgres', "SELECT id FROM pg_uuidx_read_after(NULL::$table, $after, 1000)"))
	{
		$r->{ids}{$id} = 1;
		$r->{last} = $id;
	}
	return;
}

# the committed rows of $table that its reader, read once more, never read
sub missed
{
	my ($table) = @_;
	poll($table);
	return scalar grep { $_ ne '' && !$read{$table}{ids}{$_} } split /\n/,
	  $node->safe_psql('postgres', "SELECT id FROM $table WHERE id IS NOT NULL");
}

# ---- row 5: a generated id column

$node->safe_psql('postgres', 'CREATE TABLE gen (ulid text, id uuid GENERATED ALWAYS AS (ulid_to_uuid(ulid)) STORED)');
like(try(guard('gen_guard', 'gen')), qr/^42P17 trigger "gen_guard" cannot guard column "id" of relation "gen": it is a generated column/,
	'row 5: CREATE TRIGGER of a guard on a generated id column: 42P17, naming the column');
unchecked_guard('gen_guard', 'gen');
like(try(q{INSERT INTO gen VALUES (uuid_to_ulid(uuidv7()))}), qr/^42P17 /,
	'row 5: a guard made all the same refuses a fresh id at its firing');
like(try(q{SELECT count(*) FROM pg_uuidx_read_after(NULL::gen, NULL, 1000)}), qr/^42P17 /,
	'row 5: and its readers refuse the table, as its firings do');
my $generated = try(q{INSERT INTO gen VALUES (uuid_to_ulid(uuidv7(interval '-1 hour')))});
like($generated, qr/^42P17 .*HINT: Declare the guard AFTER INSERT OR UPDATE FOR EACH ROW, or make the id a plain column/,
	'row 5: and an hour-old one, with the hint');
is($node->safe_psql('postgres', 'SELECT count(*) FROM gen'), '0', 'row 5: no row of gen stored');
SKIP:
{
	skip 'virtual generated columns are 18+', 2 if $major < 18;
	$node->safe_psql('postgres', 'CREATE TABLE vgen (src text, id uuid GENERATED ALWAYS AS (src::uuid) VIRTUAL)');
	like(try(guard('vgen_guard', 'vgen')), qr/^42P17 .*generated column/,
		'row 5: on a virtual generated column too');
	unchecked_guard('vgen_guard', 'vgen');
	like(try(q{INSERT INTO vgen VALUES (uuidv7(interval '-1 hour')::text)}), qr/^42P17 /,
		'row 5: and at its firing');
}

# ---- row 6: the guard's declaration, the triggers after it, inheritance

# BEFORE INSERT only: never fires on an UPDATE
$node->safe_psql('postgres', 'CREATE TABLE ins_only (id uuid PRIMARY KEY, note text)');
like(try(guard('ins_only_guard', 'ins_only', 'INSERT')), qr/^42P17 .*is not a declaration of pg_uuidx_horizon_guard\(\)/,
	'row 6: CREATE TRIGGER of a guard declared BEFORE INSERT only: 42P17');
unchecked_guard('ins_only_guard', 'ins_only', 'INSERT');
like(try(q{INSERT INTO ins_only VALUES (uuidv7(), 'fresh')}), qr/^42P17 /,
	'row 6: a guard made all the same refuses each row at its firing');
like(try(q{SELECT count(*) FROM pg_uuidx_read_after(NULL::ins_only, NULL, 10)}), qr/^42P17 /,
	'row 6: and its readers refuse the table, as its firings do');
try(q{UPDATE ins_only SET id = uuidv7(interval '-1 hour')});
is($node->safe_psql('postgres', 'SELECT count(*) FROM ins_only'), '0', 'row 6: no row of ins_only to move below a reader: none was stored');

# UPDATE OF id, with another trigger that rewrites the id on an update of
# another column
$node->safe_psql('postgres', q{
CREATE TABLE upd_of (id uuid PRIMARY KEY, note text);
CREATE FUNCTION an_hour_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.id := uuidv7(interval '-1 hour');
    RETURN NEW;
END $$;
CREATE TRIGGER a_back BEFORE UPDATE ON upd_of FOR EACH ROW WHEN (NEW.note = 'back') EXECUTE FUNCTION an_hour_back()});
like(try(guard('upd_of_guard', 'upd_of', 'INSERT OR UPDATE OF id')), qr/^42P17 .*DETAIL: With a column list \(UPDATE OF\)/,
	'row 6: CREATE TRIGGER of a guard declared UPDATE OF id: 42P17');
unchecked_guard('upd_of_guard', 'upd_of', 'INSERT OR UPDATE OF id');
like(try(q{INSERT INTO upd_of VALUES (uuidv7(), 'fresh')}), qr/^42P17 /,
	'row 6: a guard made all the same refuses each row at its firing');
like(try(q{SELECT count(*) FROM pg_uuidx_read_after(NULL::upd_of, NULL, 10)}), qr/^42P17 /,
	'row 6: and its readers refuse the table, as its firings do');
try(q{UPDATE upd_of SET note = 'back'});
is($node->safe_psql('postgres', 'SELECT count(*) FROM upd_of'), '0', 'row 6: no row of upd_of to move below a reader: none was stored');

# the guard after the row with a WHEN condition that is not the cover: it
# never fires, so no firing can refuse it; the reader of its table does
$node->safe_psql('postgres', 'CREATE TABLE when_false (id uuid PRIMARY KEY, note text)');
like(try(q{CREATE TRIGGER g AFTER INSERT OR UPDATE ON when_false FOR EACH ROW WHEN (false)
           EXECUTE FUNCTION pg_uuidx_horizon_guard()}),
	qr/^42P17 the WHEN condition of trigger "g" on relation "when_false" is not the guard's cover of its id/,
	'row 6: CREATE TRIGGER of the guard after the row with WHEN (false): 42P17');
$node->safe_psql('postgres', q{SELECT unchecked($q$CREATE TRIGGER g AFTER INSERT OR UPDATE ON when_false
    FOR EACH ROW WHEN (false) EXECUTE FUNCTION pg_uuidx_horizon_guard()$q$)});
like(try(q{SELECT count(*) FROM pg_uuidx_read_after(NULL::when_false, NULL, 10)}),
	qr/^42P17 the WHEN condition of trigger "g" on relation "when_false"/,
	'row 6: made all the same, it never fires, and the reader of its table refuses to read (42P17)');

# a trigger that fires after the guard
$node->safe_psql('postgres', q{
CREATE TABLE after_guard (id uuid PRIMARY KEY, note text);
CREATE TRIGGER h_back BEFORE UPDATE ON after_guard FOR EACH ROW WHEN (NEW.note = 'back') EXECUTE FUNCTION an_hour_back()});
$node->safe_psql('postgres', guard('g', 'after_guard'));
like(try(q{INSERT INTO after_guard VALUES (uuidv7(), 'fresh')}),
	qr/^42P17 trigger "h_back" on relation "after_guard" fires after the guard "g" .*HINT: .*RENAME TO zz_g/,
	'row 6: a BEFORE trigger that fires after the guard: 42P17 at the firing, naming both, with the rename to make');
poll('after_guard');
try(q{UPDATE after_guard SET note = 'back'});
is(missed('after_guard'), 0, 'row 6: no UPDATE moved an id of after_guard below its reader');
$node->safe_psql('postgres', 'ALTER TRIGGER g ON after_guard RENAME TO zz_g');
is(try(q{INSERT INTO after_guard VALUES (uuidv7(), 'fresh')}), 'ok', 'row 6: renamed to sort last, the guard takes a fresh row');
poll('after_guard');
like(try(q{UPDATE after_guard SET note = 'back'}), qr/^40001 /,
	'row 6: and refuses the id an hour back that the other trigger sets');
is(missed('after_guard'), 0, 'row 6: nothing missed');

# a table that inherits from a guarded one
$node->safe_psql('postgres', 'CREATE TABLE inh_parent (id uuid, note text)');
$node->safe_psql('postgres', guard('zz_guard', 'inh_parent'));
like(try('CREATE TABLE inh_child () INHERITS (inh_parent)'),
	qr/^42P17 table "inh_child" inherits from "inh_parent" but has no guard of column "id"/,
	'row 6: CREATE TABLE ... INHERITS a guarded table: 42P17');
$node->safe_psql('postgres', q{INSERT INTO inh_parent VALUES (uuidv7(), 'fresh')});
poll('inh_parent');
try(q{INSERT INTO inh_child VALUES (uuidv7(interval '-1 hour'), 'into the child')});
is(missed('inh_parent'), 0, 'row 6: no row inserted into a child of inh_parent is missed by its reader');

# ---- row 7: rows that join a guarded table by DDL

$node->safe_psql('postgres', q{
CREATE TABLE parts (id uuid NOT NULL, region text NOT NULL) PARTITION BY LIST (region);
CREATE TABLE parts_a PARTITION OF parts FOR VALUES IN ('a')});
$node->safe_psql('postgres', guard('zz_guard', 'parts'));
$node->safe_psql('postgres', q{
INSERT INTO parts VALUES (uuidv7(), 'a');
CREATE TABLE filled (id uuid NOT NULL, region text NOT NULL);
INSERT INTO filled VALUES (uuidv7(interval '-1 hour'), 'b')});
poll('parts');
my $attach = try(q{ALTER TABLE parts ATTACH PARTITION filled FOR VALUES IN ('b')});
like($attach, qr/^40001 table "filled" holds id \S+ made at .*, below the commit horizon already handed out/,
	'row 7: ATTACH PARTITION of a table holding an hour-old id: 40001, naming the table');
like($attach, qr/HINT: .*DISABLE TRIGGER zz_guard/, 'row 7: the hint names the way to let the rows join anyway');
is(missed('parts'), 0, 'row 7: the reader of parts misses no row');

$node->safe_psql('postgres', 'CREATE TABLE inh2 (id uuid, note text)');
$node->safe_psql('postgres', guard('zz_guard', 'inh2'));
$node->safe_psql('postgres', q{
INSERT INTO inh2 VALUES (uuidv7(), 'fresh');
CREATE TABLE inh2_old (id uuid, note text);
INSERT INTO inh2_old VALUES (uuidv7(interval '-1 hour'), 'an hour old')});
$node->safe_psql('postgres', guard('zz_guard', 'inh2_old'));
poll('inh2');
like(try('ALTER TABLE inh2_old INHERIT inh2'), qr/^40001 table "inh2_old" holds id /,
	'row 7: ALTER TABLE ... INHERIT a guarded table, holding an hour-old id: 40001');
is(missed('inh2'), 0, 'row 7: the reader of inh2 misses no row');

# ---- row 15: a re-send of a stored row

$node->safe_psql('postgres', q{
CREATE TABLE resend (id uuid PRIMARY KEY, note text);
CREATE TABLE nokey (id uuid, note text)});
$node->safe_psql('postgres', guard('zz_guard', $_)) for qw(resend nokey);
my $stored = $node->safe_psql('postgres', q{
ALTER TABLE resend DISABLE TRIGGER zz_guard;
ALTER TABLE nokey DISABLE TRIGGER zz_guard;
INSERT INTO resend VALUES (uuidv7(interval '-1 hour'), 'stored an hour ago') RETURNING id;
INSERT INTO nokey SELECT * FROM resend;
ALTER TABLE resend ENABLE TRIGGER zz_guard;
ALTER TABLE nokey ENABLE TRIGGER zz_guard});
poll('resend');

# the rows a statement inserted or updated (RETURNING 1 counted), or its error
sub rows
{
	my ($q) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', "WITH w AS ($q RETURNING 1) SELECT count(*) FROM w");
	return $rc == 0 ? $out : $err;
}
is(rows(qq{INSERT INTO resend VALUES ('$stored', 're-sent') ON CONFLICT (id) DO NOTHING}), '0',
	'row 15: a re-send ON CONFLICT (id) DO NOTHING of a stored row an hour old: taken, inserts nothing');
is(rows(qq{INSERT INTO resend VALUES ('$stored', 're-sent') ON CONFLICT (id) DO UPDATE SET note = 'updated'}), '1',
	'row 15: ON CONFLICT (id) DO UPDATE: updates the stored row');
like(try(qq{INSERT INTO resend VALUES ('$stored', 'plain')}), qr/^23505 /,
	'row 15: a plain INSERT of it: the unique violation (23505), not 40001');
like(try(q{INSERT INTO resend VALUES (uuidv7(interval '-1 hour'), 'new') ON CONFLICT (id) DO NOTHING}),
	qr/^40001 .*HINT: No committed row holds this id in the table's unique index, so this row is not a re-send: retry the transaction with a new id/,
	'row 15: an hour-old id that no row holds: 40001, and the hint says a new id is safe');
like(try(qq{INSERT INTO nokey VALUES ('$stored', 're-sent')}),
	qr/^40001 .*HINT: .*if the row may be stored already \(a re-send\), look for it first/,
	'row 15: in a table without a unique index on the id: 40001, and the hint says to look for the row first');
is(missed('resend'), 0, 'row 15: the reader of resend misses no row');

# the row met stays until the re-sending transaction ends: another one
# cannot delete it meanwhile
my $a = $node->background_psql('postgres', on_error_stop => 0);
$a->query('BEGIN');
$a->query(qq{INSERT INTO resend VALUES ('$stored', 're-sent') ON CONFLICT (id) DO NOTHING});
like(try(qq{SET lock_timeout = '300ms'; DELETE FROM resend WHERE id = '$stored'}), qr/^55P03 /,
	'row 15: the row a re-send met is locked until the re-sending transaction ends (a DELETE waits: 55P03)');
$a->query('COMMIT');

# a writer of the key still in progress is waited for: its end decides
$a->query('BEGIN');
my $late = $a->query(q{INSERT INTO resend VALUES (uuidv7(), 'in progress') RETURNING id});
sleep(0.01);
$node->safe_psql('postgres', 'SELECT uuidv7_horizon()');
like(try(qq{SET lock_timeout = '300ms'; INSERT INTO resend VALUES ('$late', 're-sent') ON CONFLICT (id) DO NOTHING}),
	qr/^55P03 /, 'row 15: a re-send of a row whose insert is still in progress waits for it (55P03 here)');
$a->query('COMMIT');
is(rows(qq{INSERT INTO resend VALUES ('$late', 're-sent') ON CONFLICT (id) DO NOTHING}), '0',
	'row 15: once it committed, the re-send is taken and inserts nothing');
$a->quit;
is(missed('resend'), 0, 'row 15: the reader of resend misses no row');

done_testing();
