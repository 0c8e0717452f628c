# sqlonly/generate.pl OUTDIR - the SQL build of pg_uuidx ("make sql-only"):
# every function of sqlonly/functions.tsv and every table of
# sqlonly/relations.tsv whose last column names a body file of sqlonly/ (or
# the C build's script it is taken from), written out as
#   pg_uuidx.control            the C build's name and default_version, no
#                               module_pathname
#   pg_uuidx--<ver>.sql         the full script of the current version
#   pg_uuidx--<prev>.sql        the full script of the previous one and
#   pg_uuidx--<prev>--<ver>.sql the update between them (rows by "since";
#                               a body whose comment ends "-- Replaced in
#                               <ver>." is replaced in place), so that an
#                               update path can be shown
#   pg_uuidx_tle.sql            the same for pg_tle, for psql
#   pg_uuidx_plain.sql          the functions and tables into the schema named
#                               by psql's :schema (default uuidx), without an
#                               extension: each table CREATE TABLE IF NOT
#                               EXISTS, without pg_extension_config_dump()
#                               and the GRANTs to the extension's owner
# Before writing anything it checks the body files against the lists: each
# listed function is created exactly once, in the file its row names, with
# the row's arguments, result and labels (volatility, strictness, parallel
# safety); each listed table or view exactly once, in the file its row
# names, of the row's kind; nothing unlisted is created.  A row still marked
# TODO is left out with a warning.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use File::Basename qw(dirname);
use File::Path qw(make_path);

my $out = shift // die "usage: $0 OUTDIR\n";
my $src = dirname(__FILE__);
my $root = "$src/..";
my @errors;
sub fail { push @errors, @_; }

sub slurp
{
	my $file = shift;
	open(my $fh, '<', $file) or die "$file: $!\n";
	local $/;
	return scalar <$fh>;
}

sub spew
{
	my ($file, $text) = @_;
	open(my $fh, '>', $file) or die "$file: $!\n";
	print $fh $text;
	close($fh) or die "$file: $!\n";
}

# the C build's control file: name, version, comment
my $control = slurp("$root/pg_uuidx.control");
my ($version) = $control =~ /^default_version\s*=\s*'([^']+)'/m or die "no default_version in pg_uuidx.control\n";
my ($comment) = $control =~ /^comment\s*=\s*'((?:[^']|'')*)'/m or die "no comment in pg_uuidx.control\n";
# the previous version: the one the C build's update script to this one starts from
my ($previous) = map { /pg_uuidx--([\d.]+)--\Q$version\E\.sql$/ ? $1 : () } glob("$root/pg_uuidx--*--*.sql");
defined $previous or die "no update script pg_uuidx--X--$version.sql\n";

sub vercmp
{
	my @a = split /\./, shift;
	my @b = split /\./, shift;
	while (@a || @b)
	{
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}

# type names as regtype prints them
my %alias = (
	timestamptz => 'timestamp with time zone',
	timestamp => 'timestamp without time zone',
	bool => 'boolean',
	int2 => 'smallint',
	int4 => 'integer',
	int => 'integer',
	int8 => 'bigint',
	float8 => 'double precision',
	varchar => 'character varying');

sub type_name
{
	my $t = lc(shift);
	$t =~ s/\s+/ /g;
	$t =~ s/^\s|\s$//g;
	$t =~ s/^pg_catalog\.//;
	return $alias{$t} // $t;
}

# Labels the SQL build must give otherwise (volatility/strict/parallel):
# PostgreSQL inlines a STRICT SQL function only when its body is strict, and
# the range predicates' bodies are ANDs, so that the planner sees index
# conditions (range.sql); they return NULL for a NULL argument all the same.
# The generators keep their state with set_config, which no process may call
# while a parallel plan runs, the leader included: PARALLEL UNSAFE (the
# planner judges a query by the label before it inlines the body).
# test/sqlbuild/contract.sql expects the same.
my %sql_labels = (
	'uuidv7_in_time_range(uuid,tstzrange)' => 'i/-/s',
	'uuidv6_in_time_range(uuid,tstzrange)' => 'i/-/s',
	'uuidv7()' => 'v/-/u',
	'uuidv6()' => 'v/-/u',
	'uuidv7(interval)' => 'v/s/u',
	'uuidv7_at(timestamp with time zone)' => 'v/s/u',
	'uuidv7_at(timestamp without time zone)' => 'v/s/u');

# the list
my (%rows, @rows, %known_type);
for my $line (split /\n/, slurp("$src/functions.tsv"))
{
	next if $line =~ /^#/ || $line =~ /^name\t/ || $line !~ /\S/;
	my %r;
	@r{qw(name args returns kind volatility strict parallel since sql)} = split /\t/, $line, -1;
	defined $r{sql} or die "functions.tsv: a row of fewer than 9 columns: $line\n";
	@r{qw(sig list)} = ("$r{name}($r{args})", 'functions.tsv');
	die "functions.tsv: $r{sig} twice\n" if $rows{ $r{sig} };
	$rows{ $r{sig} } = \%r;
	push @rows, \%r;
	$known_type{$_} = 1 for split /,/, $r{args};
}

# the tables and views (relations.tsv): the same checks, by name
my (%rels, @rels);
for my $line (split /\n/, slurp("$src/relations.tsv"))
{
	next if $line =~ /^#/ || $line =~ /^name\t/ || $line !~ /\S/;
	my %r;
	@r{qw(name kind since sql)} = split /\t/, $line, -1;
	defined $r{sql} or die "relations.tsv: a row of fewer than 4 columns: $line\n";
	die "relations.tsv: $r{name} twice\n" if $rels{ $r{name} };
	die "relations.tsv: $r{name} is of kind '$r{kind}', neither r (table) nor v (view)\n" unless $r{kind} =~ /^[rv]$/;
	@r{qw(sig list)} = ($r{name}, 'relations.tsv');
	$rels{ $r{name} } = \%r;
	push @rels, \%r;
}

# Statements of a SQL file, split at the semicolons outside quotes, comments
# and BEGIN ATOMIC bodies.  Each is [text, words]: the text as written, and
# its words outside quotes and comments, upper case (a quoted string becomes
# the word '', a quoted identifier the identifier).
sub statements
{
	my ($file) = @_;
	my $text = slurp($file);
	my (@result, @words, $start, $atomic);
	my $pos = 0;
	my $len = length $text;
	$start = 0;
	while ($pos < $len)
	{
		my $rest = substr($text, $pos);
		if ($rest =~ /^--[^\n]*/ || $rest =~ m{^/\*.*?\*/}s || $rest =~ /^\s+/)
		{
			$pos += length $&;
		}
		elsif ($rest =~ /^\\[^\n]*/ && ($pos == 0 || substr($text, $pos - 1, 1) eq "\n"))
		{
			# a psql meta-command line (the C build's scripts' \echo ... \quit)
			$pos += length $&;
			$start = $pos unless @words;
		}
		elsif ($rest =~ /^'(?:[^']|'')*'/)
		{
			push @words, "''";
			$pos += length $&;
		}
		elsif ($rest =~ /^"((?:[^"]|"")*)"/)
		{
			push @words, $1;
			$pos += length $&;
		}
		elsif ($rest =~ /^(\$([A-Za-z_][A-Za-z0-9_]*)?\$)/)
		{
			my $tag = $1;
			my $end = index($text, $tag, $pos + length $tag);
			die "$file: unterminated $tag quote\n" if $end < 0;
			push @words, "''";
			$pos = $end + length $tag;
		}
		elsif ($rest =~ /^;/)
		{
			$pos++;
			if ($atomic)
			{
				push @words, ';';
				next;
			}
			push @result, [ substr($text, $start, $pos - $start), [@words] ] if @words;
			@words = ();
			$start = $pos;
		}
		elsif ($rest =~ /^([A-Za-z_][A-Za-z0-9_\$]*|\d+(?:\.\d+)?|::|[<>=!@#%^&|~+*\/-]+|.)/s)
		{
			my $w = uc $1;
			$pos += length $1;
			if (@words && $words[-1] eq 'BEGIN' && $w eq 'ATOMIC')
			{
				$atomic = 1;
			}
			elsif ($atomic && ($w eq 'CASE' || $w eq 'BEGIN'))
			{
				$atomic++;
			}
			elsif ($atomic && $w eq 'END')
			{
				$atomic--;
			}
			push @words, $w;
		}
	}
	die "$file: text after the last statement\n" if @words;
	# a statement's text starts after the previous one's semicolon: drop the
	# blank lines before it, keep its comments, but the file's own header
	# (the comment lines before the first blank line)
	$result[0][0] =~ s/^(?:--[^\n]*\n)+\s*\n// if @result;
	s/^\s*\n// for map { $_->[0] } @result;
	return @result;
}

# the argument types of an argument list (words between the parentheses):
# names, modes and defaults dropped, OUT arguments left out
sub arg_types
{
	my @words = @_;
	my (@args, @cur);
	push @words, ',';
	for my $w (@words)
	{
		if ($w ne ',')
		{
			push @cur, $w;
			next;
		}
		next unless @cur;
		my @a = @cur;
		@cur = ();
		my ($i) = grep { $a[$_] eq 'DEFAULT' || $a[$_] eq '=' } 0 .. $#a;
		splice(@a, $i) if defined $i;
		next if $a[0] eq 'OUT';
		shift @a if $a[0] eq 'IN' || $a[0] eq 'INOUT' || $a[0] eq 'VARIADIC';
		my $whole = type_name(join ' ', @a);
		my $named = @a > 1 ? type_name(join ' ', @a[ 1 .. $#a ]) : undef;
		push @args, defined $named && ($known_type{$named} || !$known_type{$whole}) ? $named : $whole;
	}
	return join ',', @args;
}

# the words between the parenthesis at $words[$i] and its match
sub parenthesized
{
	my ($words, $i) = @_;
	my $depth = 0;
	for my $j ($i .. $#$words)
	{
		$depth++ if $words->[$j] eq '(';
		$depth-- if $words->[$j] eq ')';
		return ([ @$words[ $i + 1 .. $j - 1 ] ], $j) if $depth == 0;
	}
	die "unbalanced parentheses\n";
}

# Units of the body files: a CREATE statement and the COMMENT, ALTER, GRANT
# and REVOKE statements after it (a table's: also the call of
# pg_extension_config_dump() that marks it).  Each unit has the signature it
# creates (a table or view: its name), the row it belongs to (an operator:
# its function's), its text, the text of the plain script (without an
# extension: a table if it is not there yet, not marked, no GRANT to the
# extension's owner) and the names of pg_uuidx functions it calls.
#
# A row may instead name one of the C build's scripts (pg_uuidx--*.sql, the
# newest that creates it): a function that the C build writes in SQL or
# PL/pgSQL is taken from there as it is, with its COMMENT, a table with what
# the script says of it after its CREATE, and everything else in that script
# is passed over.
my (@units, %defined);
my @files = sort map { m{([^/]+)$} } glob("$src/*.sql");
my %c_script = map { $_->{sql} => 1 } grep { $_->{sql} =~ /^pg_uuidx--[\d.-]+\.sql$/ } @rows, @rels;

# whether a statement after a unit's CREATE is about that unit: a
# function's COMMENT (all that counts in a C build's script, where the
# body files' looser rule would take what is said of other objects), or a
# table's or view's COMMENT, GRANT, REVOKE or pg_extension_config_dump()
sub about
{
	my ($unit, $stmt, $text) = @_;
	my $name;
	if (!$unit->{rel})
	{
		($name) = $stmt =~ /^COMMENT ON (?:FUNCTION|PROCEDURE) \@ EXTSCHEMA \@ \. (\w+) \(/;
	}
	elsif ($stmt =~ /^SELECT PG_CATALOG \. PG_EXTENSION_CONFIG_DUMP \(/)
	{
		($name) = $text =~ /\bpg_catalog\.pg_extension_config_dump\s*\(\s*'\@extschema\@\.(\w+)'/;
	}
	else
	{
		($name) = $stmt =~ /^(?:COMMENT ON (?:TABLE|VIEW) |(?:GRANT|REVOKE) [\w ,]+? ON (?:TABLE )?)\@ EXTSCHEMA \@ \. (\w+) (?:IS|TO|FROM) /;
	}
	return defined $name && lc $name eq $unit->{name};
}

# a unit's text, and that of the plain script: a table created there if it
# is not there yet; the call of pg_extension_config_dump() and the GRANTs to
# the extension's owner only where there is an extension
sub add_text
{
	my ($unit, $text, $stmt) = @_;
	$unit->{text} .= $text;
	return if $stmt =~ /^SELECT PG_CATALOG \. PG_EXTENSION_CONFIG_DUMP \(/ || $stmt =~ /^GRANT .*\@ EXTOWNER \@/;
	$text =~ s/\A(\s*(?:--[^\n]*\n\s*)*)CREATE TABLE\b/$1CREATE TABLE IF NOT EXISTS/ if $stmt =~ /^CREATE TABLE /;
	$unit->{plain} .= $text;
	return;
}

# a unit of the CREATE in $text, among the units; unless its row is
# missing (it is not in $list: a failure), recorded as created in its file
sub start_unit
{
	my ($unit, $text, $stmt, $list) = @_;
	add_text($unit, $text, $stmt);
	push @units, $unit;
	if (!$unit->{row})
	{
		fail("$unit->{file}: $unit->{sig} is not in $list");
		return 0;
	}
	push @{ $defined{ $unit->{sig} } }, $unit->{file};
	return 1;
}
for my $file (@files, sort keys %c_script)
{
	my $unit;
	my $from_c = $c_script{$file};
	for my $st (statements($from_c ? "$root/$file" : "$src/$file"))
	{
		my ($text, $w) = @$st;
		# a body of sqlonly/ that a later version changed: a line
		# "-- Replaced in <version>." in the comment before its CREATE
		my ($replaces) = $from_c ? () : ($text =~ /\A(?:\s*--[^\n]*\n)*?\s*-- Replaced in ([\d.]+)\.\s*$/m);
		# a function a later update script of the C build changes in place:
		# the full script creates it, the update script to that version
		# replaces it
		if ($from_c && "@$w[0 .. 2]" eq 'CREATE OR REPLACE')
		{
			$w = [ $w->[0], @$w[ 3 .. $#$w ] ];
			$text =~ s/\bCREATE OR REPLACE\b/CREATE/;
			($replaces) = $file =~ /--([\d.]+)\.sql$/;
		}
		my $stmt = join ' ', @$w;
		if ($from_c)
		{
			# only the CREATE of a row that names this script, and what is
			# said about that same object after it
			if ($stmt =~ /^CREATE /)
			{
				my $row;
				if ($stmt =~ /^CREATE (?:FUNCTION|PROCEDURE) \@ EXTSCHEMA \@ \. (\w+) \(/)
				{
					$row = $rows{ lc($1) . '(' . arg_types(@{ (parenthesized($w, 7))[0] }) . ')' };
				}
				elsif ($stmt =~ /^CREATE (?:TABLE|VIEW) \@ EXTSCHEMA \@ \. (\w+) /)
				{
					$row = $rels{ lc $1 };
					fail("$file: \L$1\E is not in relations.tsv") unless $row;
				}
				$unit = undef;
				next unless $row && $row->{sql} eq $file;
			}
			else
			{
				next unless $unit && about($unit, $stmt, $text);
				add_text($unit, $text, $stmt);
				next;
			}
		}
		if ($stmt =~ /^CREATE (FUNCTION|PROCEDURE|AGGREGATE) \@ EXTSCHEMA \@ \. (\w+) \(/)
		{
			my ($kind, $name) = ($1, lc $2);
			my $open = 7;    # CREATE KIND @ EXTSCHEMA @ . NAME (
			my ($args, $close) = parenthesized($w, $open);
			my $sig = "$name(" . arg_types(@$args) . ")";
			my @rest = @$w[ $close + 1 .. $#$w ];
			my $rest = join ' ', @rest;
			my $row = $rows{$sig};
			$unit = { sig => $sig, name => $name, file => $file, row => $row, replaced_in => $replaces };
			next unless start_unit($unit, $text, $stmt, 'functions.tsv');
			my %want = (FUNCTION => 'f', PROCEDURE => 'p', AGGREGATE => 'a');
			fail("$file: $sig is a \L$kind\E, functions.tsv says kind $row->{kind}")
			  if $want{$kind} ne $row->{kind};
			my ($vol, $strict, $par);
			if ($kind eq 'AGGREGATE')
			{
				($vol, $strict) = ('i', '-');
				$par = $rest =~ /\bPARALLEL = (SAFE|RESTRICTED|UNSAFE)\b/ ? lc substr($1, 0, 1) : 'u';
			}
			else
			{
				# the labels stand before a SQL-standard body
				(my $head = $rest) =~ s/\b(?:RETURN|BEGIN ATOMIC)\b.*//;
				$vol = $head =~ /\b(IMMUTABLE|STABLE|VOLATILE)\b/ ? lc substr($1, 0, 1) : 'v';
				$strict = $head =~ /\bSTRICT\b|\bRETURNS NULL ON NULL INPUT\b/ ? 's' : '-';
				$par = $head =~ /\bPARALLEL (SAFE|RESTRICTED|UNSAFE)\b/ ? lc substr($1, 0, 1) : 'u';
				if ($kind eq 'FUNCTION')
				{
					my $returns;
					if ($head =~ /^RETURNS TABLE \(/)
					{
						$returns = 'record[set]';
					}
					elsif ($head =~ /^RETURNS (SETOF )?(.+?) (?:LANGUAGE|AS|IMMUTABLE|STABLE|VOLATILE|STRICT|CALLED|RETURNS NULL|PARALLEL|SET|COST|ROWS|SUPPORT|SECURITY|LEAKPROOF|NOT|WINDOW|TRANSFORM)\b/)
					{
						$returns = type_name($2) . ($1 ? '[set]' : '');
					}
					fail("$file: $sig returns " . ($returns // '?') . ", functions.tsv says $row->{returns}")
					  if ($returns // '') ne $row->{returns};
				}
			}
			my $want = $sql_labels{$sig} // "$row->{volatility}/$row->{strict}/$row->{parallel}";
			fail("$file: $sig is $vol/$strict/$par (volatility/strict/parallel), the SQL build's labels are $want")
			  if "$vol/$strict/$par" ne $want;
		}
		elsif ($stmt =~ /^CREATE OPERATOR \@ EXTSCHEMA \@ \. (\S+) \(/)
		{
			my $op = $1;
			my ($fn) = $stmt =~ /\b(?:FUNCTION|PROCEDURE) = \@ EXTSCHEMA \@ \. (\w+)/;
			my ($left) = $stmt =~ /\bLEFTARG = ([\w ]+?) ,/;
			my ($right) = $stmt =~ /\bRIGHTARG = ([\w ]+?) [,)]/;
			my $sig = defined $fn ? lc($fn) . '(' . join(',', map { type_name($_ // '') } $left, $right) . ')' : '';
			$unit = { sig => "operator $op", file => $file, row => $rows{$sig} };
			add_text($unit, $text, $stmt);
			push @units, $unit;
			fail("$file: operator $op runs no function of functions.tsv") unless $unit->{row};
		}
		elsif ($stmt =~ /^CREATE (TABLE|VIEW) \@ EXTSCHEMA \@ \. (\w+) /)
		{
			my ($kind, $name) = ($1 eq 'TABLE' ? 'r' : 'v', lc $2);
			my $row = $rels{$name};
			$unit = { sig => $name, name => $name, rel => 1, file => $file, row => $row, replaced_in => $replaces };
			next unless start_unit($unit, $text, $stmt, 'relations.tsv');
			fail("$file: $name is a " . ($kind eq 'r' ? 'table' : 'view') . ", relations.tsv says kind $row->{kind}")
			  if $kind ne $row->{kind};
		}
		elsif ($unit && ($stmt =~ /^(COMMENT|ALTER|GRANT|REVOKE) / || ($unit->{rel} && about($unit, $stmt, $text))))
		{
			add_text($unit, $text, $stmt);
		}
		else
		{
			fail("$file: a statement that is neither a CREATE of pg_uuidx's nor about one: "
				  . substr($stmt, 0, 60));
		}
	}
}
my @todo;
for my $r (@rows, @rels)
{
	my $where = $defined{ $r->{sig} } || [];
	if ($r->{sql} eq 'TODO')
	{
		push @todo, $r->{sig};
		fail("$r->{sig} is TODO in $r->{list} but created in @$where") if @$where;
	}
	elsif ($r->{sql} =~ /^-\s+\S/)
	{
		fail("$r->{sig} is left out in $r->{list} but created in @$where") if @$where;
	}
	elsif ($r->{sql} =~ /^[\w.-]+\.sql$/)
	{
		fail("$r->{sig}: $r->{list} names $r->{sql}, which does not exist")
		  unless -f ($c_script{ $r->{sql} } ? "$root/$r->{sql}" : "$src/$r->{sql}");
		fail("$r->{sig} is created " . scalar(@$where) . " times (@$where), not once in $r->{sql}")
		  unless @$where == 1 && $where->[0] eq $r->{sql};
	}
	else
	{
		fail("$r->{sig}: $r->{list}'s sql column is neither a file, '- reason' nor TODO: '$r->{sql}'");
	}
}
warn "sql-only: left out, still TODO in functions.tsv or relations.tsv: @todo\n" if @todo;
if (@errors)
{
	print STDERR "sql-only: $_\n" for @errors;
	exit 1;
}

# Units in an order that creates every function before one that calls it
# (LANGUAGE sql bodies are checked when created), and every table before
# what names it: by the names of pg_uuidx's functions and tables each unit's
# text names, then as found (files in name order, statements in file
# order).
my %unit_of_name;
for my $i (0 .. $#units)
{
	push @{ $unit_of_name{ $units[$i]{name} } }, $i if defined $units[$i]{name};
}
my (@ordered, %state);
my $visit;
$visit = sub {
	my $i = shift;
	return if ($state{$i} // '') eq 'done';
	die "sql-only: functions that call each other when created: $units[$i]{sig}\n" if ($state{$i} // '') eq 'busy';
	$state{$i} = 'busy';
	# other names only: overloads of one name keep their order in the file
	my $own = $units[$i]{name};
	my %calls = map { lc($_) => 1 } $units[$i]{text} =~ /\@extschema\@\.(\w+)/gi;
	delete $calls{$own} if defined $own;
	for my $name (sort keys %calls)
	{
		$visit->($_) for grep { $_ != $i } @{ $unit_of_name{$name} || [] };
	}
	$state{$i} = 'done';
	push @ordered, $units[$i];
};
$visit->($_) for 0 .. $#units;

my @included = grep { $_->{sql} =~ /\.sql$/ } @rows;
my @left_out = grep { $_->{sql} !~ /\.sql$/ } @rows, @rels;
my @tables = grep { $_->{sql} =~ /\.sql$/ } @rels;

# The checks every script starts with, as the C build's base script: may the
# extension's owner create in the target schema (extension scripts only),
# and does the schema have functions of our signatures already.
my $owner_check = <<'SQL';
-- A trusted extension's script runs as the bootstrap superuser and CREATE
-- EXTENSION does not check that the role may create objects in the target
-- schema: check it here, as the C build does.
DO $target$
BEGIN
    IF NOT pg_catalog.has_schema_privilege('@extowner@'::pg_catalog.regrole::pg_catalog.oid,
                                           '@extschema@'::pg_catalog.regnamespace::pg_catalog.oid,
                                           'CREATE') THEN
        RAISE EXCEPTION 'permission denied for schema %', '@extschema@'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Role @extowner@ may not create objects in schema @extschema@.',
                  HINT = 'Install pg_uuidx into a schema that role may create objects in, or as a superuser.';
    END IF;
END
$target$;

SQL

sub clash_check
{
	my $values = join(",\n", map { "                 ('$_->{name}', '$_->{args}')" } @included);
	return <<"SQL";
-- Functions of the same names and arguments already in the target schema
-- would stop this script at a CREATE with an error that does not say where:
-- name them all first, as the C build does.
DO \$clash\$
DECLARE
    found pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s(%s)', p.proname,
                                 pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[], ', ')),
                                 ', ' ORDER BY p.proname, p.proargtypes::pg_catalog.text)
    INTO found
    FROM pg_catalog.pg_proc p
    JOIN (VALUES
$values) AS ours(name, args)
      ON p.proname OPERATOR(pg_catalog.=) ours.name
     AND pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[], ',') OPERATOR(pg_catalog.=) ours.args
    WHERE p.pronamespace OPERATOR(pg_catalog.=) '\@extschema\@'::pg_catalog.regnamespace::pg_catalog.oid;
    IF found IS NOT NULL THEN
        RAISE EXCEPTION 'schema % already has functions named like pg_uuidx''s: %',
            '\@extschema\@', found
            USING ERRCODE = 'duplicate_function',
                  HINT = 'Install pg_uuidx into a schema of its own (CREATE EXTENSION pg_uuidx SCHEMA uuidx), '
                         'or repoint what uses these functions and drop them first (see the README, "Installing beside existing functions").';
    END IF;
END
\$clash\$;

SQL
}

my $generated = "-- Generated by \"make sql-only\" (sqlonly/generate.pl) from sqlonly/; do not edit.\n";
my $left_out_note = join('', "-- Left out of the SQL build (functions.tsv, relations.tsv):\n",
	map {
		"--   $_->{sig}" . ($_->{kind} eq 'v' ? ' (view)' : $_->{kind} eq 'r' ? ' (table)' : '') . ': '
		  . ($_->{sql} eq 'TODO' ? 'not written yet' : $_->{sql} =~ s/^-\s+//r) . "\n"
	} @left_out);

sub body
{
	# versions: since > from (undef: any), since <= to; the plain script's
	# text with $plain
	my ($from, $to, $plain) = @_;
	my $new = sub { my ($v) = @_; defined $v && vercmp($v, $to) <= 0 && (!defined $from || vercmp($v, $from) > 0) };
	return join("\n", map {
			my $text = $_->{ $plain ? 'plain' : 'text' } =~ s/\s*\z/\n/r;
			defined $from && !$new->($_->{row}{since}) ? $text =~ s/\bCREATE\b/CREATE OR REPLACE/r : $text
		  }
		  grep { $new->($_->{row}{since}) || (defined $from && vercmp($_->{row}{since}, $to) <= 0 && $new->($_->{replaced_in})) }
		  @ordered);
}

sub full_script
{
	my ($v, $plain) = @_;    # the plain script's body: no owner check
	return "/* pg_uuidx--$v.sql: the SQL build of pg_uuidx $v, full script */\n$generated\n"
	  . "-- complain if script is sourced in psql, rather than via CREATE EXTENSION\n"
	  . "\\echo Use \"CREATE EXTENSION pg_uuidx\" to load this file. \\quit\n\n"
	  . $left_out_note . "\n" . ($plain ? '' : $owner_check) . clash_check() . body(undef, $v, $plain);
}

sub update_script
{
	my ($from, $to) = @_;
	return "/* pg_uuidx--$from--$to.sql: the SQL build of pg_uuidx, update from $from to $to */\n$generated\n"
	  . "-- complain if script is sourced in psql, rather than via ALTER EXTENSION\n"
	  . "\\echo Use \"ALTER EXTENSION pg_uuidx UPDATE TO '$to'\" to load this file. \\quit\n\n"
	  . body($from, $to);
}

# what pg_tle and the plain script hold: a script without its psql guard
sub unguarded { return $_[0] =~ s/^\\echo [^\n]*\\quit\n//mr; }

# a dollar quote that the text does not contain
sub dollar_quoted
{
	my ($tag, $text) = @_;
	die "sql-only: the script contains \$$tag\$\n" if index($text, "\$$tag\$") >= 0;
	return "\$$tag\$\n$text\$$tag\$";
}

make_path($out);
unlink glob("$out/pg_uuidx*");
spew("$out/pg_uuidx.control",
	"# pg_uuidx, SQL build (generated by \"make sql-only\"): no C library\n"
	  . "comment = '$comment'\ndefault_version = '$version'\nrelocatable = false\ntrusted = true\n");
my %script = ($version => full_script($version), $previous => full_script($previous));
my $update = update_script($previous, $version);
spew("$out/pg_uuidx--$version.sql", $script{$version});
spew("$out/pg_uuidx--$previous.sql", $script{$previous});
spew("$out/pg_uuidx--$previous--$version.sql", $update);

spew("$out/pg_uuidx_tle.sql", <<"SQL"
-- pg_uuidx_tle.sql: the SQL build of pg_uuidx $version for pg_tle, as a role
-- with pgtle_admin (psql -f pg_uuidx_tle.sql); then CREATE EXTENSION pg_uuidx.
-- Versions $previous and $version and the update path between them.
$generated
\\set ON_ERROR_STOP 1
BEGIN;
SELECT pgtle.install_extension('pg_uuidx', '$version', '$comment',
@{[ dollar_quoted('pg_uuidx_script', unguarded($script{$version})) ]});
SELECT pgtle.install_extension_version_sql('pg_uuidx', '$previous',
@{[ dollar_quoted('pg_uuidx_script', unguarded($script{$previous})) ]});
SELECT pgtle.install_update_path('pg_uuidx', '$previous', '$version',
@{[ dollar_quoted('pg_uuidx_script', unguarded($update)) ]});
SELECT pgtle.set_default_version('pg_uuidx', '$version');
COMMIT;
SQL
);

# The plain script: the body of the full script (no owner check: it runs as
# the role that calls it; tables as add_text writes them there) with
# \@extschema\@ replaced by the quoted schema name, the substitution CREATE
# EXTENSION makes, run as one statement list in one transaction.
my $plain_body = unguarded(full_script($version, 'plain'));
die "sql-only: the plain script names the extension's owner\n" if $plain_body =~ /\@extowner\@/;
spew("$out/pg_uuidx_plain.sql", <<"SQL"
-- pg_uuidx_plain.sql: the SQL build of pg_uuidx $version without an extension,
-- for servers that offer neither C extensions nor pg_tle:
--     psql -v schema=uuidx -f pg_uuidx_plain.sql
-- creates the schema if needed and the functions in it (default schema uuidx),
-- in one transaction.  No ALTER EXTENSION UPDATE: a new version is a new
-- run into an empty schema; pg_dump dumps the functions as any others.
$generated
\\set ON_ERROR_STOP 1
\\if :{?schema}
\\else
\\set schema uuidx
\\endif
BEGIN;
-- a schema name that quoting cannot carry into the script's string literals
SELECT pg_catalog.set_config('pg_uuidx_sql.plain_schema', :'schema', true) AS pg_uuidx_schema \\gset
DO \$check\$
BEGIN
    IF pg_catalog.current_setting('pg_uuidx_sql.plain_schema') OPERATOR(pg_catalog.~) '[''"\$\\\\]' THEN
        RAISE EXCEPTION 'schema name % may not contain quotes, dollar signs or backslashes',
            pg_catalog.current_setting('pg_uuidx_sql.plain_schema')
            USING ERRCODE = 'invalid_schema_name';
    END IF;
END
\$check\$;
CREATE SCHEMA IF NOT EXISTS :"schema";
SELECT pg_catalog.replace(
@{[ dollar_quoted('pg_uuidx_plain', $plain_body) ]},
    '\@extschema\@', pg_catalog.quote_ident(:'schema')) AS script \\gexec
COMMIT;
SQL
);
print "sql-only: pg_uuidx $version ($previous and the update to $version) in $out: ",
  scalar(@included), " of ", scalar(@rows), " functions, ", scalar(@tables), " of ", scalar(@rels), " tables and views\n";
