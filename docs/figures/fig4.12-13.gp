# fig4.12-13: drawn by mcastsim run fig4.12-13
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig4.12-13.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig4.12-13.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig4.12-13.png' }
  ttl = 'fig4.12-13: U-torus receive steps with link sharing, 1024-node 2D (32x32) and 512-node 3D (8x8x8)'
  set multiplot layout 1,2 title ttl
  set xlabel 'multicast set size m (with the source)'; set ylabel 'receive step'; set key top left
  do for [w in 'avg max'] {
    set title (w eq 'avg' ? 'average' : 'maximum').' over destinations'
    plot for [c in '2D-uni 2D-bi 3D-uni 3D-bi'] \
      csv using ((strcol(1) eq c) ? $5 : NaN):(column('shared_'.w)) with linespoints title c, \
      csv using ((strcol(1) eq '2D-uni') ? $5 : NaN):(column('ideal_'.w)) with lines lw 2 lc 'black' dt 2 title 'bound (no sharing)'
  }
  unset multiplot
}
