# Every relative link in the project's Markdown files (README.md,
# CONTRIBUTING.md, CHANGELOG.md, docs/*.md and any other tracked *.md)
# leads to a tracked file, and every #anchor to a heading of its target, by
# GitHub's rule for heading anchors (lower case, punctuation dropped, spaces
# to hyphens, -1, -2, ... for repeated headings).  Every page in docs/ is
# linked from README.md.  Needs no cluster.
#
# The checkout is PG_UUIDX_REPO (test/run.sh sets it: the runner copies test/
# into a temp dir) or, when run straight from a checkout with prove, the
# directory two levels above this file.  Outside a git checkout (a PGXN zip,
# a Debian source package) there is no list of tracked files: the test
# skips.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use Cwd qw(realpath);
use FindBin;
use Test::More;

my $root = realpath($ENV{PG_UUIDX_REPO} // "$FindBin::RealBin/../..");

# the tracked files of the checkout at $root; git may run as another OS user
# than the checkout's owner (the test servers' user), hence safe.directory
sub git
{
	my @cmd = ('git', '-c', "safe.directory=$root", '-C', $root, @_);
	open(my $fh, '-|', @cmd) or return;
	local $/;
	my $out = <$fh>;
	close($fh) or return;
	return $out;
}
my $top = git('rev-parse', '--show-toplevel');
plan skip_all => "$root is not a git checkout (no list of tracked files)"
  unless defined $top;
chomp $top;
plan skip_all => "$root is inside the git checkout $top, not at its top"
  unless realpath($top) eq $root;

my %tracked = map { $_ => 1 } split /\0/, git('ls-files', '-z');
my %tracked_dir;
for my $f (keys %tracked)
{
	$tracked_dir{$1} = 1 while $f =~ m{^(.+)/[^/]*$} && ($f = $1);
}

# GitHub's anchor of a heading text
sub slug
{
	my ($text) = @_;
	$text =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;    # a link: its text
	$text = lc $text;
	$text =~ s/[^\p{L}\p{M}\p{N}\p{Pc}\- ]//g;
	$text =~ s/ /-/g;
	return $text;
}

# the lines of a Markdown file outside fenced code blocks
sub prose_lines
{
	my ($path) = @_;
	open(my $fh, '<:encoding(UTF-8)', "$root/$path") or die "$path: $!";
	my ($fence, @lines);
	while (my $line = <$fh>)
	{
		chomp $line;
		if ($line =~ /^\s*(```+|~~~+)/)
		{
			my $mark = substr($1, 0, 3);
			if (!defined $fence) { $fence = $mark; }
			elsif ($mark eq $fence) { undef $fence; }
			next;
		}
		push @lines, $line unless defined $fence;
	}
	return @lines;
}

my %anchors_of;
sub anchors
{
	my ($path) = @_;
	return $anchors_of{$path} //= do {
		my (%seen, %anchors);
		for (prose_lines($path))
		{
			next unless /^#{1,6}\s+(.*?)\s*#*\s*$/;
			my $s = slug($1);
			my $n = $seen{$s}++;
			$anchors{ $n ? "$s-$n" : $s } = 1;
		}
		\%anchors;
	};
}

# a path relative to $dir, normalised; undef when it leaves the checkout
sub resolve
{
	my ($dir, $rel) = @_;
	my @parts = $rel =~ m{^/} ? () : grep { length } split m{/}, $dir;
	for (split m{/}, $rel)
	{
		next if $_ eq '' || $_ eq '.';
		if ($_ eq '..') { return undef unless @parts; pop @parts; }
		else { push @parts, $_; }
	}
	return join('/', @parts);
}

# the problems with one link target from the file $path
sub check_link
{
	my ($path, $target) = @_;
	return () if $target =~ /^[a-z][a-z0-9+.-]*:/i;    # https:, mailto:
	my ($file, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
	$file =~ s/%([0-9a-f]{2})/chr(hex($1))/gie;
	my $dir = $path =~ m{^(.*)/} ? $1 : '';
	my $to = $file eq '' ? $path : resolve($dir, $file);
	return ("$target: outside the checkout") unless defined $to;
	$to =~ s{/$}{};
	return () if $to eq '' && !defined $anchor;
	return ("$target: $to is not a tracked file")
	  unless $tracked{$to} || $tracked_dir{$to};
	return () unless defined $anchor && length $anchor;
	return ("$target: #$anchor is in a file that is not Markdown")
	  unless $to =~ /\.md$/ && $tracked{$to};
	return ("$target: $to has no heading with the anchor #$anchor")
	  unless anchors($to)->{$anchor};
	return ();
}

my @pages = sort grep { /\.md$/ && -f "$root/$_" } keys %tracked;
ok((grep { $_ eq 'README.md' } @pages), 'README.md is tracked');
for my $path (@pages)
{
	my (@broken, $n);
	for my $line (prose_lines($path))
	{
		$line =~ s/(`+).*?\1//g;    # code spans hold no links
		my @targets;
		push @targets, $1
		  while $line =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
		push @targets, $1 if $line =~ /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
		for my $t (@targets)
		{
			$n++;
			push @broken, check_link($path, $t);
		}
	}
	is_deeply(\@broken, [], "$path: " . ($n // 0) . ' links resolve')
	  or diag(map { "  $path -> $_\n" } @broken);
}

# every page of docs/ can be reached from the README
my $readme = join "\n", prose_lines('README.md');
my @unlinked = grep { m{^docs/[^/]+\.md$} && $readme !~ /\]\(\Q$_\E(?:#[^)]*)?\)/ } @pages;
is_deeply(\@unlinked, [], 'every page in docs/ is linked from README.md')
  or diag("  not linked from README.md: @unlinked\n");

done_testing();
