# seed002-ch4: drawn by mcastsim run seed002-ch4
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed002-ch4.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1400,800 dynamic; set output 'seed002-ch4.svg' }
  else { set terminal pngcairo size 1400,800; set output 'seed002-ch4.png' }
  rs = 'oblivious obliv-triplex duato min-triplex'
  sel(tr, ln, i) = (strcol(2) eq tr && strcol(3) eq ln && strcol(1) eq word(rs, i)) ? column(6) : NaN
  set multiplot layout 2,4 title 'seed 002 ch. 4: wormhole, 16x16 torus, normalized throughput against load (top 40-word, bottom 40/400 at 10:1)'
  set xrange [0:0.6]; set yrange [0:0.6]; set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced
  do for [ln in 'short mix'] { do for [tr in 'random bitrev transpose hotspot1'] {
    set title tr . ' ' . ln noenhanced
    plot for [i=1:4] csv using 4:(sel(tr, ln, i)) with linespoints pt i title word(rs, i), x with lines dt 2 lc 'gray' notitle
  } }
  unset multiplot
}
