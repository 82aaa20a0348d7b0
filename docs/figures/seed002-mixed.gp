# seed002-mixed: drawn by mcastsim run seed002-mixed
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed002-mixed.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1600,1500 dynamic; set output 'seed002-mixed.svg' }
  else { set terminal pngcairo size 1600,1500; set output 'seed002-mixed.png' }
  l4 = '0.05 0.15 0.25 0.35'
  trs = 'random bitrev transpose hotspot1'
  sel(r, tr, ld, c) = (strcol(1) eq r && strcol(2) eq tr && abs(column(3) - ld) < 0.001) ? column(c) : NaN
  set multiplot layout 4,4 title 'Fulgham (1997), ch. 4, mixed-class traffic: 16x16 torus, wormhole, 40/400-word at 10:1; x % oblivious-class (in order) Triplex, the rest minimal (nonmin: non-minimal) Triplex, against the oblivious router'
  set key top right font ',8' noenhanced; set xrange [-5:105]; set xlabel '% oblivious class (x)'
  l2 = '0.20 0.30'
  do for [tr in trs] {
    set title tr . ': throughput (Fig. 4.13)' noenhanced; set ylabel 'throughput'; set yrange [0:*]
    plot for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 6)) with linespoints lc j pt 7 title 'Triplex '.word(l2, j), \
         for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 18)) with lines lc j dt 2 title (j == 1 ? 'estimate' : ''), \
         for [j=1:2] csv using 4:(sel('nonmin', tr, word(l2, j) + 0, 6)) with points lc j pt 4 title (j == 1 ? 'non-minimal' : ''), \
         for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 6) - sel('min', tr, word(l2, j) + 0, 20)) with lines lc j dt 3 title (j == 1 ? 'oblivious router' : '')
    set title tr . ': latency (Fig. 4.13)' noenhanced; set ylabel 'latency (cycles)'
    plot for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 8)) with linespoints lc j pt 7 title 'Triplex '.word(l2, j), \
         for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 19)) with lines lc j dt 2 title (j == 1 ? 'estimate' : ''), \
         for [j=1:2] csv using 4:(sel('nonmin', tr, word(l2, j) + 0, 8)) with points lc j pt 4 title (j == 1 ? 'non-minimal' : ''), \
         for [j=1:2] csv using 4:(sel('min', tr, word(l2, j) + 0, 8) + sel('min', tr, word(l2, j) + 0, 21)) with lines lc j dt 3 title (j == 1 ? 'oblivious router' : '')
    set title tr . ': throughput advantage (Fig. 4.14)' noenhanced; set ylabel 'Triplex - oblivious'; set yrange [*:*]
    plot for [j=1:4] csv using 4:(sel('min', tr, word(l4, j) + 0, 20)) with linespoints lc j pt 7 title 'load '.word(l4, j), 0 with lines lc 'gray' notitle
    set title tr . ': latency advantage (Fig. 4.14)' noenhanced; set ylabel 'oblivious - Triplex (cycles)'
    plot for [j=1:4] csv using 4:(sel('min', tr, word(l4, j) + 0, 21)) with linespoints lc j pt 7 title 'load '.word(l4, j), 0 with lines lc 'gray' notitle
  }
  unset multiplot
}
