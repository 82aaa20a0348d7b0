# seed002: drawn by mcastsim run seed002
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed002.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1500,900 dynamic; set output 'seed002.svg' }
  else { set terminal pngcairo size 1500,900; set output 'seed002.png' }
  algs = 'do do duato duato duato min-triplex min-triplex min-triplex chaos'
  arbs = 'in-fixed out in-fixed in-random out in-fixed in-random out out'
  names = 'DO_in DO_out Duato_in-fixed Duato_in-random Duato_out Triplex_in-fixed Triplex_in-random Triplex_out Chaos_out'
  sel(tp, tr, i) = (strcol(1) eq tp && strcol(4) eq tr && strcol(2) eq word(algs, i) && strcol(3) eq word(arbs, i)) ? column(7) : NaN
  set multiplot layout 2,3 title 'Fulgham (1997): normalized throughput against normalized load, 16x16, 20-word packets (VCT)'
  set xrange [0:1.05]; set yrange [0:1]; set xlabel 'applied load'; set ylabel 'throughput'; set key top left font ',9' noenhanced
  do for [p in 'torus:16x16,random torus:16x16,bitrev torus:16x16,hotspot2 mesh:16x16,random mesh:16x16,bitrev mesh:16x16,complement'] {
    tp = p[1:strstrt(p, ',') - 1]; tr = p[strstrt(p, ',') + 1:]
    set title tp . ' ' . tr noenhanced
    plot for [i=1:9] csv using 5:(sel(tp, tr, i)) with linespoints pt i title word(names, i), x with lines dt 2 lc 'gray' notitle
  }
  unset multiplot
}
