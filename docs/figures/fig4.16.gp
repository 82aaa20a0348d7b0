# fig4.16: drawn by mcastsim run fig4.16
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig4.16.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig4.16.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig4.16.png' }
  set multiplot layout 1,2 title 'fig4.16: U-torus with link sharing against separate addressing, 64x64 unidirectional'
  set xlabel 'multicast set size m'; set ylabel 'receive step'; set key top left; set logscale y
  do for [w in 'avg max'] {
    set title (w eq 'avg' ? 'average' : 'maximum').' over destinations'
    plot csv using 5:(column('separate_'.w)) with linespoints title 'separate addressing', \
      csv using 5:(column('shared_'.w)) with linespoints title 'U-torus, link sharing', \
      csv using 5:(column('ideal_'.w)) with lines dt 2 lc 'black' title 'U-torus, no sharing'
  }
  unset multiplot
}
