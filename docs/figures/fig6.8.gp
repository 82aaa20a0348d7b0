# fig6.8: drawn by mcastsim run fig6.8
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig6.8.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig6.8.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig6.8.png' }
  set multiplot layout 1,2 title 'fig6.8: total link visits per multicast, 4096-node tori'
  set logscale xy 2; set xlabel 'destinations m'; set ylabel 'link visits'; set key top left
  do for [d in '2 3'] {
    set title d.'D torus'
    plot for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(2) eq d) ? $3 : NaN):6 \
        with linespoints lc i title word(algos, i)
  }
  unset multiplot
}
