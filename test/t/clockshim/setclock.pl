#!/usr/bin/perl
# test/t/clockshim/setclock.pl FILE MODE SEC NSEC - move the clock of
# clockshim.c: the three values are written in place, in one write, into the
# file every process of the cluster has mapped (a new file would not reach
# them).  Its standard input is read to the end first, so that a server
# running it through COPY ... TO PROGRAM never writes into a closed pipe.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';

die "usage: $0 FILE MODE SEC NSEC\n" unless @ARGV == 4;
my ($file, @clock) = @ARGV;
my $buf;
1 while sysread(STDIN, $buf, 65536);
open my $fh, '+<', $file or die "$file: $!";
binmode $fh;
my $data = pack('q<q<q<', @clock);
syswrite($fh, $data) == length($data) or die "$file: short write";
close $fh or die "$file: $!";
