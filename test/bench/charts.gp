# charts.gp: the report's PNG charts, from the tab-separated files bench.pl
# exports into OUT (run from inside OUT: gnuplot path/to/charts.gp).
#   gen.tsv      -> gen.png          ns per call above the floor, per function
#   insert.tsv   -> insert_rate.png  rows/s per key type
#                -> insert_size.png  primary key size and WAL per key type
#   pgbench.tsv  -> pgbench.png      tps per client count, v4 and v7
# A chart whose data file is missing or empty is skipped.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

set datafile separator "\t"
set datafile missing "\\N"
set datafile columnheaders
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics lc rgb "#dddddd"
set key noautotitle
set border 3
set tics nomirror
has(f) = system("test -s " . f . " && echo 1 || echo 0") eq "1"

term_cmd = "set terminal pngcairo noenhanced size 1100,600 font 'DejaVu Sans,10'"
if (!strstrt(GPVAL_TERMINALS, "pngcairo")) term_cmd = "set terminal png noenhanced size 1100,600"
eval term_cmd

# gen.tsv columns: ord label expr src floor median_ms min_ms max_ms ns_above_floor ...
# floors (empty "floor" column) leave a gap between groups; log scale, so
# results at or below 1 ns (noise around zero) are drawn as 1 ns, labelled with their value
if (has("gen.tsv")) {
    set output "gen.png"
    set title "ns per call above the floor query (median; log scale)"
    set ylabel "ns per call"
    set logscale y
    set yrange [1:*]
    set xtics rotate by -35 left
    set bmargin 11
    set rmargin 14
    plot "gen.tsv" using 0:(strcol(5) eq "" ? NaN : ($9 < 1 ? 1 : $9)):xtic(strcol(5) eq "" ? "" : strcol(2)) \
            with boxes lc rgb "#4477aa", \
         "" using 0:(strcol(5) eq "" ? NaN : ($9 < 1 ? 1 : $9)):(sprintf("%.0f", $9)) \
            with labels offset 0,0.7
    unset logscale y
    unset xtics; set xtics nomirror
    set bmargin; set rmargin
    set yrange [*:*]
}

# insert.tsv columns: ord key rows seconds rows_per_s index_mib table_mib
#                     leaf_density_pct leaf_fragmentation_pct wal_mib wal_bytes_per_row checkpoints
if (has("insert.tsv")) {
    set output "insert_rate.png"
    set title "insert rate (rows/s, batches of INSERT ... SELECT)"
    set ylabel "rows per second"
    set yrange [0:*]
    plot "insert.tsv" using 0:5:xtic(2) with boxes lc rgb "#228833", \
         "" using 0:5:(sprintf("%.0f", $5)) with labels offset 0,0.7

    set output "insert_size.png"
    set title "primary key size and WAL written per key type"
    set ylabel "MiB"
    set key top left
    set style data histogram
    set style histogram clustered gap 1
    set boxwidth 0.9
    plot "insert.tsv" using 6:xtic(2) title "primary key (MiB)" lc rgb "#4477aa", \
         "" using 10 title "WAL (MiB)" lc rgb "#ee6677"
    set key noautotitle
    set style data points
    set boxwidth 0.6
}

# pgbench.tsv columns: clients v4_tps v7_tps v4_latency_ms v7_latency_ms
if (has("pgbench.tsv")) {
    set output "pgbench.png"
    set title "single-row INSERT throughput (pgbench)"
    set xlabel "clients"
    set ylabel "transactions per second"
    set yrange [0:*]
    set logscale x 2
    set key top left
    plot "pgbench.tsv" using 1:2 with linespoints lw 2 pt 7 lc rgb "#ee6677" title "gen_random_uuid()", \
         "" using 1:3 with linespoints lw 2 pt 5 lc rgb "#4477aa" title "uuidv7()"
}
