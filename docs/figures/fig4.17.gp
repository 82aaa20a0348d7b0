# fig4.17: drawn by mcastsim run fig4.17
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig4.17.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig4.17.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig4.17.png' }
  set multiplot layout 1,2 title 'fig4.17: unicasts sharing a link per multicast, 4096-node bidirectional tori'
  set xlabel 'multicast set size m'; set ylabel 'unicasts per multicast'; set key top left
  do for [tor in '2D-bi 3D-bi'] {
    set title tor.' torus'
    plot csv using ((strcol(1) eq tor) ? $5 : NaN):'type1' with linespoints title 'Type 1', \
      csv using ((strcol(1) eq tor) ? $5 : NaN):'type2' with linespoints title 'Type 2', \
      csv using ((strcol(1) eq tor) ? $5 : NaN):($5 - 1) with lines dt 2 lc 'black' title 'all unicasts (m - 1)'
  }
  unset multiplot
}
