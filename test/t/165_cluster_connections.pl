# The connections of a Citus coordinator's reader to the nodes (src/reading/cluster.c),
# without Citus: a stand-in catalog (pg_dist_* tables made in pg_catalog, a
# row "citus" in pg_extension), Citus's library stood in for by
# test/t/citus_standin (it defines citus.node_conninfo as Citus does), and
# stand-in nodes on 127.0.0.1: a listener that never accepts, and child
# processes that speak enough of the protocol to let a connection in and
# never answer, or to ask for a password.  Nodes that answer are this
# server itself, reached through its socket directory under several names.
#
# - Credentials: where Citus's library is not loaded, citus.node_conninfo is
#   a placeholder that any role may SET; a role that names another address
#   and the server's password file there must get no connection (the table
#   is refused, 55000), and the listener no password.  Loaded, the setting
#   is the superuser's (a SET fails), and its options other than those
#   Citus itself takes are refused (passfile, 22023).
# - Bounds: a node that never answers ends the read after
#   pg_uuidx.node_timeout (08006 connecting, 57014 waiting for the answer;
#   5 s by default, for pg_uuidx_consume() too); a cancel ends it at once;
#   the question left unanswered is closed with the transaction or the
#   subtransaction, not at the connection's next use (and cancelled first
#   where libpq 17+ can do it within a bound); a reader whose client is
#   gone ends within client_connection_check_interval.
# - fd.c's budget: more nodes than max_files_per_process allows external
#   files for are refused (08001), not opened past it.
# - The cache: one connection per node, of the role that read last; closed
#   when its role is altered and when its node leaves pg_dist_node.
# - A guard enabled REPLICA does not fire in ordinary sessions: a Citus table
#   guarded only so is refused (55000); one enabled ALWAYS is read.
# - The messages are whole sentences in the source, not built from pieces.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use Cwd qw(realpath);
use IO::Select;
use IO::Socket::INET;
use IPC::Run;
use POSIX ();
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

my $root = realpath($ENV{PG_UUIDX_REPO} // "$FindBin::RealBin/../..");
my $dir = PostgreSQL::Test::Utils::tempdir();
system("cp -r '$FindBin::RealBin/citus_standin' '$dir/'") == 0 or die 'copy failed';
run_log([ 'make', '-s', '-C', "$dir/citus_standin", 'PG_CONFIG=' . ($ENV{PG_CONFIG} || 'pg_config') ])
  or die 'test/t/citus_standin did not build';
my $standin = "$dir/citus_standin/citus_standin.so";
my @children;
my $parent = $$;

# the stand-in nodes end with the test, also when it dies before its end
END
{
	local $?;    # waitpid sets it: the test's exit code stays
	if ($$ == $parent && @children)
	{
		kill 'KILL', @children;
		waitpid($_, 0) for @children;
	}
}

# A stand-in node on 127.0.0.1, served by a child process that logs one line
# per event to $node->{log}: "connect", "startup USER APPLICATION_NAME",
# "password VALUE", "query", "cancel PID KEY", "eof".  Mode "mute" lets every
# connection in (BackendKeyData 4242 777) and never answers a query; mode
# "password" asks for a cleartext password and refuses it.
sub fake_node
{
	my ($mode) = @_;
	my $listener = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp',
		Listen => 16, ReuseAddr => 1) or die "listen: $!";
	my $node = { port => $listener->sockport, log => "$dir/$mode.log" };
	open my $fh, '>', $node->{log} or die $!;
	close $fh;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		serve($listener, $mode, $node->{log});
		POSIX::_exit(0);
	}
	close $listener;
	push @children, $pid;
	return $node;
}

sub serve
{
	my ($listener, $mode, $logfile) = @_;
	alarm(600);    # never outlives the test
	open my $log, '>>', $logfile or die $!;
	$log->autoflush(1);
	my $select = IO::Select->new($listener);
	my (%in, %started);
	for (;;)
	{
		for my $s ($select->can_read)
		{
			if ($s == $listener)
			{
				my $c = $listener->accept or next;
				$select->add($c);
				($in{$c}, $started{$c}) = ('', 0);
				print $log "connect\n";
				next;
			}
			my $close = !sysread($s, my $data, 65536);
			print $log "eof\n" if $close;
			$in{$s} .= $data // '';
			while (!$close)
			{
				if (!$started{$s})
				{
					last if length($in{$s}) < 8;
					my ($len, $code) = unpack('NN', $in{$s});
					last if length($in{$s}) < $len;
					my $packet = substr($in{$s}, 0, $len, '');
					if ($code == 80877103 || $code == 80877104)    # SSLRequest, GSSENCRequest
					{
						syswrite($s, 'N');
					}
					elsif ($code == 80877102)                       # CancelRequest
					{
						printf $log "cancel %d %d\n", unpack('NN', substr($packet, 8));
						$close = 1;
					}
					else
					{
						my %p = split /\0/, substr($packet, 8);
						print $log "startup $p{user} $p{application_name}\n";
						$started{$s} = 1;
						syswrite($s, $mode eq 'password'
							? pack('aNN', 'R', 8, 3)
							: pack('aNN', 'R', 8, 0) . pack('aNNN', 'K', 12, 4242, 777) . pack('aNa', 'Z', 5, 'I'));
					}
					next;
				}
				last if length($in{$s}) < 5;
				my ($type, $len) = unpack('aN', $in{$s});
				last if length($in{$s}) < 1 + $len;
				my $body = substr(substr($in{$s}, 0, 1 + $len, ''), 5);
				print $log "query\n" if $type eq 'P';
				if ($type eq 'p')
				{
					print $log 'password ' . ($body =~ s/\0$//r) . "\n";
					my $fields = "SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed\0\0";
					syswrite($s, 'E' . pack('N', 4 + length($fields)) . $fields);
					$close = 1;
				}
			}
			if ($close)
			{
				$select->remove($s);
				delete $in{$s};
				delete $started{$s};
				close $s;
			}
		}
	}
}

# the lines of $node's log
sub events
{
	my ($node) = @_;
	return split /\n/, slurp_file($node->{log});
}

# how many lines of $node's log are $what, waiting up to $limit s for more
# than $than
sub count_events
{
	my ($node, $what, $than, $limit) = @_;
	my $deadline = time + ($limit // 0);
	for (;;)
	{
		my $n = grep { $_ eq $what } events($node);
		return $n if $n > ($than // -1) || time >= $deadline;
		sleep 0.05;
	}
}

my $password_node = fake_node('password');
my $mute = fake_node('mute');
# accepts nothing: the kernel completes the handshake, no one reads
my $silent = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp', Listen => 16, ReuseAddr => 1)
  or die "listen: $!";
# nothing listens there
my $closed_port = do
{
	my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp', Listen => 1) or die $!;
	my $port = $s->sockport;
	close $s;
	$port;
};

# a password file of the server's, for a node named citus-worker-3
my $passfile = "$dir/pgpass";
open my $pf, '>', $passfile or die $!;
print $pf "citus-worker-3:$password_node->{port}:*:*:server-secret\n";
close $pf;
chmod 0600, $passfile;

my $node = new_node('cluster_connections',
	conf => [ "shared_preload_libraries = 'pg_uuidx'", 'max_connections = 80', 'max_files_per_process = 100' ]);
my $socket = $node->host;
create_try($node, 'postgres');

# the stand-in catalog; a table $t (guarded) with one shard on each of
# groups @groups; a node $name:$port in group $group
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
SET allow_system_table_mods = on;
CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass NOT NULL);
CREATE TABLE pg_catalog.pg_dist_shard (logicalrelid regclass NOT NULL, shardid bigint NOT NULL);
CREATE TABLE pg_catalog.pg_dist_placement (shardid bigint NOT NULL, groupid int NOT NULL);
CREATE TABLE pg_catalog.pg_dist_node (groupid int NOT NULL, nodename text NOT NULL, nodeport int NOT NULL,
    noderole text NOT NULL DEFAULT 'primary', isactive bool NOT NULL DEFAULT true);
CREATE TABLE pg_catalog.pg_dist_local_group (groupid int NOT NULL);
INSERT INTO pg_catalog.pg_dist_local_group VALUES (0);
GRANT SELECT ON pg_catalog.pg_dist_partition, pg_catalog.pg_dist_shard, pg_catalog.pg_dist_placement,
    pg_catalog.pg_dist_node, pg_catalog.pg_dist_local_group TO PUBLIC;
CREATE SEQUENCE shards;
INSERT INTO pg_catalog.pg_extension (oid, extname, extowner, extnamespace, extrelocatable, extversion)
    VALUES (pg_nextoid('pg_catalog.pg_extension', 'oid', 'pg_catalog.pg_extension_oid_index'),
            'citus', 10, 'pg_catalog'::regnamespace, false, '0');
CREATE ROLE mallory LOGIN;
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
});

sub citus_table
{
	my ($t, @groups) = @_;
	$node->safe_psql('postgres', qq{
CREATE TABLE $t (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON $t
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
GRANT SELECT ON $t TO mallory, alice, bob;
INSERT INTO pg_catalog.pg_dist_partition VALUES ('$t');
} . join('', map { qq{
WITH s AS (INSERT INTO pg_catalog.pg_dist_shard VALUES ('$t', nextval('shards')) RETURNING shardid)
INSERT INTO pg_catalog.pg_dist_placement SELECT shardid, $_ FROM s;} } @groups));
	return;
}

sub add_node
{
	my ($group, $name, $port) = @_;
	$node->safe_psql('postgres', qq{INSERT INTO pg_catalog.pg_dist_node (groupid, nodename, nodeport)
		VALUES ($group, '$name', $port)});
	return;
}

# psql -c $sql as $user, within $limit s: (seconds, stderr with SQLSTATEs);
# a read still running then is terminated and reported as "timed out"
sub timed
{
	my ($sql, $limit, $user) = @_;
	my ($out, $err, $timed_out) = ('', '', 0);
	my $t0 = time;
	$node->psql('postgres', $sql, stdout => \$out, stderr => \$err, timeout => $limit, timed_out => \$timed_out,
		extra_params => [ '-v', 'VERBOSITY=verbose', $user ? ('-U', $user) : () ]);
	my $took = time - $t0;
	if ($timed_out)
	{
		$node->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE query ~ 'pg_uuidx_(read_after|consume)' AND state = 'active' AND pid <> pg_backend_pid()});
		$err = 'timed out';
	}
	return ($took, $err);
}

# A psql session kept open: sql($s, $sql, $limit) returns what $sql printed
# (stdout and stderr, with SQLSTATEs), or 'timed out' after $limit s
sub session
{
	my $s = { in => '', out => '', n => 0 };
	$s->{run} = IPC::Run::start([ 'psql', '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $node->connstr('postgres') ],
		'<', \$s->{in}, '>&', \$s->{out});
	$s->{pid} = sql($s, 'SELECT pg_backend_pid()', 20) =~ s/\s+//gr;
	return $s;
}

sub send_sql
{
	my ($s, $sql) = @_;
	my $n = ++$s->{n};
	$s->{in} .= "$sql;\n\\echo __done $n\n";
	$s->{run}->pump_nb;
	return $n;
}

sub wait_sql
{
	my ($s, $n, $limit) = @_;
	my $deadline = time + $limit;
	until ($s->{out} =~ /__done $n\n/)
	{
		if (time >= $deadline)
		{
			$node->safe_psql('postgres', "SELECT pg_cancel_backend($s->{pid})");
			return 'timed out';
		}
		sleep 0.02;
		$s->{run}->pump_nb;
	}
	$s->{out} =~ s/^(.*?)__done $n\n//s;
	return $1;
}

sub sql
{
	my ($s, $sql, $limit) = @_;
	return wait_sql($s, send_sql($s, $sql), $limit);
}

# the SQLSTATE and message of the error in psql's verbose output
sub error_of
{
	my ($err) = @_;
	return $err =~ /ERROR:\s+(\w{5}): ([^\n]*)/ ? "$1 $2" : $err;
}

# every error message seen, checked against the source at the end
my @messages;

sub message_seen
{
	my ($error) = @_;
	push @messages, $error if $error =~ /^[0-9A-Z]{5} /;
	return;
}

sub read_sql
{
	my ($t, $n) = @_;
	return "SELECT count(*) FROM pg_uuidx_read_after(NULL::$t, NULL, ${\($n // 1)})";
}

# ---- credentials, Citus's library not loaded: citus.node_conninfo is a placeholder
add_node(3, 'citus-worker-3', $password_node->{port});
citus_table('evil', 3);
my ($took, $err) = timed("SET citus.node_conninfo = 'hostaddr=127.0.0.1 passfile=$passfile'; " . read_sql('evil'), 30,
	'mallory');
like(error_of($err), qr/^55000 pg_uuidx_read_after\(\) cannot read Citus table "evil" without Citus's library$/,
	'placeholder citus.node_conninfo (Citus not loaded): the Citus table is refused, 55000');
is(join(',', grep { /^(startup|password)/ } events($password_node)), '',
	'a role that SET the placeholder to its own address and the server\'s password file: no connection, no password');

# ---- Citus's library (the stand-in) loaded
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx,$standin'\n");
$node->restart;
($took, $err) = timed(q{SET citus.node_conninfo = 'sslmode=disable'}, 30, 'mallory');
like(error_of($err), qr/^55P02 parameter "citus.node_conninfo" cannot be changed now$/,
	'Citus loaded: citus.node_conninfo is PGC_SIGHUP, no session sets it');
$node->append_conf('postgresql.conf', "citus.node_conninfo = 'sslmode=disable passfile=$passfile'\n");
$node->reload;
my $before = grep { /^(startup|password)/ } events($password_node);
($took, $err) = timed(read_sql('evil'), 30, 'mallory');
like(error_of($err), qr/^22023 pg_uuidx_read_after\(\) cannot connect to node citus-worker-3:\d+ with option "passfile" of citus\.node_conninfo$/,
	'an option of citus.node_conninfo that Citus does not take (passfile) is refused, even a superuser\'s');
my @after = grep { /^(startup|password)/ } events($password_node);
is(join(',', @after[ $before .. $#after ]), '', 'still no connection, no password');
message_seen(error_of($err));
$node->append_conf('postgresql.conf', "citus.node_conninfo = 'sslmode=disable'\n");
$node->reload;

# ---- guards that never fire in ordinary sessions
citus_table('guard_replica');
is($node->safe_psql('postgres', 'SELECT try($$' . read_sql('guard_replica') . '$$)'), 'ok',
	'a Citus table guarded (no shard elsewhere) is read');
$node->safe_psql('postgres', 'ALTER TABLE guard_replica ENABLE REPLICA TRIGGER zz_guard');
like($node->safe_psql('postgres', 'SELECT try($$' . read_sql('guard_replica') . '$$)'),
	qr/^55000 pg_uuidx_read_after\(\) cannot read table public\.guard_replica: column "id" has no guard/,
	'its guard enabled REPLICA (never fires with session_replication_role = origin): refused, 55000');
$node->safe_psql('postgres', 'ALTER TABLE guard_replica ENABLE ALWAYS TRIGGER zz_guard');
is($node->safe_psql('postgres', 'SELECT try($$' . read_sql('guard_replica') . '$$)'), 'ok',
	'enabled ALWAYS: read');
$node->safe_psql('postgres', 'ALTER TABLE guard_replica DISABLE TRIGGER zz_guard');
like($node->safe_psql('postgres', 'SELECT try($$' . read_sql('guard_replica') . '$$)'), qr/^55000 /, 'disabled: refused');

# ---- a node that refuses the connection
add_node(4, '127.0.0.1', $closed_port);
citus_table('refused', 4);
($took, $err) = timed(read_sql('refused'), 30);
like(error_of($err), qr/^08006 pg_uuidx_read_after\(\) could not connect to node 127\.0\.0\.1:$closed_port$/,
	'a node that refuses connections: 08006, naming it');
message_seen(error_of($err));

# ---- a node that never answers, connecting
add_node(2, '127.0.0.1', $silent->sockport);
citus_table('silent', 2);
($took, $err) = timed("SET pg_uuidx.node_timeout = '1s'; " . read_sql('silent'), 30);
like(error_of($err), qr/^08006 pg_uuidx_read_after\(\) timed out connecting to node 127\.0\.0\.1:\d+$/,
	'a node that accepts and never answers: 08006 after pg_uuidx.node_timeout');
ok($took >= 0.9 && $took < 10, "... after 1 s (took ${\sprintf('%.2f', $took)} s)");
message_seen(error_of($err));
($took, $err) = timed(q{SELECT count(*) FROM pg_uuidx_consume(NULL::silent, 'c', 10)}, 40);
like(error_of($err), qr/^08006 pg_uuidx_consume\(\) timed out connecting to node/,
	'pg_uuidx_consume() (its position locked meanwhile) ends too');
ok($took >= 4.5 && $took < 20, "... after the default 5 s (took ${\sprintf('%.2f', $took)} s)");

# ---- a node that lets the connection in and never answers the question
add_node(1, '127.0.0.1', $mute->{port});
citus_table('mute', 1);
my $libpq_cancels = slurp_file(`pg_config --includedir` =~ s/\s+$//r . '/libpq-fe.h') =~ /LIBPQ_HAS_ASYNC_CANCEL/;
note('libpq ' . ($libpq_cancels ? 'sends a cancel request within a bound' : 'has no bounded cancel: closed only'));
my $s = session();
my $eofs = count_events($mute, 'eof');
my $t0 = time;
my $out = sql($s, "SET pg_uuidx.node_timeout = '1s'; " . read_sql('mute'), 30);
$took = time - $t0;
like(error_of($out), qr/^57014 pg_uuidx_read_after\(\) timed out waiting for the horizon of node 127\.0\.0\.1:\d+$/,
	'a node that never answers the question: 57014 after pg_uuidx.node_timeout');
ok($took >= 0.9 && $took < 10, "... after 1 s (took ${\sprintf('%.2f', $took)} s)");
message_seen(error_of($out));
is(count_events($mute, 'eof', $eofs, 5), $eofs + 1, 'the connection is closed when the statement fails, the session open');
is(scalar(grep { /^cancel 4242 777$/ } events($mute)), $libpq_cancels ? 1 : 0,
	$libpq_cancels ? 'its question cancelled first (the node\'s key)' : 'no cancel request (no bounded one in this libpq)');

# a cancel of the reader
sql($s, "SET pg_uuidx.node_timeout = '60s'", 10);
my $queries = count_events($mute, 'query');
my $n = send_sql($s, read_sql('mute'));
is(count_events($mute, 'query', $queries, 10), $queries + 1, 'reader waiting for the node');
$eofs = count_events($mute, 'eof');
$t0 = time;
$node->safe_psql('postgres', "SELECT pg_cancel_backend($s->{pid})");
$out = wait_sql($s, $n, 10);
like(error_of($out), qr/^57014 canceling statement due to user request$/, 'a cancel ends the wait at once');
ok(time - $t0 < 5, '... at once');
is(count_events($mute, 'eof', $eofs, 5), $eofs + 1, 'the question left unanswered: its connection closed at the abort');

# an error caught in a subtransaction: closed with it, the transaction goes on
$eofs = count_events($mute, 'eof');
$out = sql($s, "BEGIN; SET LOCAL pg_uuidx.node_timeout = '1s'; DO \$\$ BEGIN PERFORM FROM pg_uuidx_read_after(NULL::mute, NULL, 1);"
	  . " EXCEPTION WHEN query_canceled THEN RAISE NOTICE 'caught'; END \$\$", 30);
like($out, qr/NOTICE:.*caught/, 'the timeout caught in a subtransaction');
is(count_events($mute, 'eof', $eofs, 5), $eofs + 1, '... its connection closed with the subtransaction');
is(sql($s, 'COMMIT', 10), '', 'the transaction commits');

# a client gone while its reader waits: with client_connection_check_interval
# (core's way of noticing) the backend ends at once, not after the timeout
$queries = count_events($mute, 'query');
my $gone = IPC::Run::start([ 'psql', '-XAtq', '-d', $node->connstr('postgres') . ' application_name=gone', '-c',
		"SET client_connection_check_interval = '200ms'; SET pg_uuidx.node_timeout = '60s'; " . read_sql('mute') ],
	'>', \my $gone_out, '2>', \my $gone_err);
is(count_events($mute, 'query', $queries, 10), $queries + 1, 'another reader waiting for the node');
$gone->kill_kill;
$t0 = time;
ok($node->poll_query_until('postgres',
		q{SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name = 'gone'}),
	'its client killed: the backend ends');
ok(time - $t0 < 10, "... within client_connection_check_interval, not pg_uuidx.node_timeout (took ${\sprintf('%.2f', time - $t0)} s)");

# ---- fd.c's budget: a node per connection, up to max_safe_fds / 3.  Nodes
# that answer: this server, through links to its socket directory
symlink('.', "$socket/n$_") or die "symlink: $!" for 1 .. 40;
add_node(100 + $_, "$socket/n$_", $node->port) for 1 .. 40;
citus_table('many', map { 100 + $_ } 1 .. 40);
symlink('.', "$socket/$_") or die "symlink: $!" for qw(a b);
add_node(10, "$socket/a", $node->port);
add_node(11, "$socket/b", $node->port);
citus_table('answered', 10, 11);
($took, $err) = timed(read_sql('answered'), 30);
is($err, '', 'two nodes that answer (this server): read');
($took, $err) = timed(read_sql('many'), 60);
like(error_of($err), qr/^08001 pg_uuidx_read_after\(\) could not connect to node /,
	'40 nodes, more than fd.c allows external files for with max_files_per_process = 100: 08001');
like($err, qr/There are too many open files on the local server/, '... saying so');

# ---- the cache: one connection per node, of the role that read last
# the usenames of this server's backends that are connections of a reader,
# once they are $expected (or after 10 s)
sub readers
{
	my ($expected) = @_;
	my $deadline = time + 10;
	for (;;)
	{
		my $got = $node->safe_psql('postgres', q{SELECT coalesce(string_agg(usename, ',' ORDER BY usename), '')
			FROM pg_stat_activity WHERE application_name = 'pg_uuidx cluster horizon'});
		return $got if $got eq $expected || time >= $deadline;
		sleep 0.1;
	}
}
my $r = session();
sql($r, 'SET ROLE alice; ' . read_sql('answered') . '; RESET ROLE', 30);
is(readers('alice,alice'), 'alice,alice', 'alice read: a connection to each node as alice');
sql($r, 'SET ROLE bob; ' . read_sql('answered') . '; RESET ROLE', 30);
is(readers('bob,bob'), 'bob,bob', 'then bob: his replace hers');
$node->safe_psql('postgres', 'ALTER ROLE bob CONNECTION LIMIT 50');
sql($r, 'SELECT 1', 10);
is(readers(''), '', 'bob altered: his connections closed at the end of the session\'s next transaction');
sql($r, 'SET ROLE bob; ' . read_sql('answered') . '; RESET ROLE', 30);
is(readers('bob,bob'), 'bob,bob', 'opened again by his next read');
$node->safe_psql('postgres', 'DELETE FROM pg_catalog.pg_dist_node WHERE groupid = 11');
sql($r, 'SET ROLE alice; ' . read_sql('answered') . '; RESET ROLE', 30);
is(readers('alice'), 'alice', 'a node removed from pg_dist_node: its connection closed at the next read');

# ---- the messages: each a whole format in the source (translatable)
my $source = slurp_file("$root/src/reading/cluster.c");
for my $m (@messages)
{
	my $format = $m =~ s/^\w{5} //r;
	$format =~ s/^pg_uuidx_\w+\(\)/%s/;
	$format =~ s/node [^ ]+:\d+/node %s:%d/;
	$format =~ s/"[^"]*"/"%s"/;
	$format =~ s/"/\\"/g;
	ok(index($source, "errmsg(\"$format\"") >= 0, "message \"$format\" is one errmsg() format in src/reading/cluster.c");
}

$r->{run}->finish;
$s->{run}->finish;
done_testing();
