# seed002-ch4: drawn by mcastsim run seed002-ch4
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed002-ch4.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1400,1100 dynamic; set output 'seed002-ch4.svg' }
  else { set terminal pngcairo size 1400,1100; set output 'seed002-ch4.png' }
  rs = 'oblivious obliv-triplex duato min-triplex triplex'
  ps = 'duato min-triplex min-triplex-no4t triplex chaos'
  sel(tr, ln, r) = (strcol(2) eq tr && strcol(3) eq ln && strcol(1) eq r) ? column(6) : NaN
  set multiplot layout 3,4 title 'Fulgham (1997), ch. 4: 16x16 torus, normalized throughput against load (wormhole: 40-word, 40/400 at 10:1; packet: 20 words)'
  set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced
  do for [ln in 'short mix packet'] { do for [tr in 'random bitrev transpose hotspot1'] {
    set title tr . ' ' . ln noenhanced
    if (ln eq 'packet') { set xrange [0:1.05]; set yrange [0:1]; ns = ps } else { set xrange [0:0.6]; set yrange [0:0.6]; ns = rs }
    plot for [i=1:5] csv using 4:(sel(tr, ln, word(ns, i))) with linespoints pt i title word(ns, i), x with lines dt 2 lc 'gray' notitle
  } }
  unset multiplot
}
