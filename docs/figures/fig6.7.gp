# fig6.7: drawn by mcastsim run fig6.7
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig6.7.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig6.7.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig6.7.png' }
  set multiplot layout 1,2 title 'fig6.7: 4096-node 2D torus, m = 512 (solid: average, dashed: maximum)'
  set logscale xy; set xlabel 'message length (flits)'; set ylabel 'latency (us)'; set key top left
  do for [s in 'high low'] {
    set title s.' start-up'; f = (s eq 'high') ? csv : 'fig6.7-low.csv'
    plot for [i=1:5] f using ((strcol(4) eq word(algos, i)) ? $3 : NaN):6 \
        with linespoints lc i title word(algos, i), \
      for [i=1:5] f using ((strcol(4) eq word(algos, i)) ? $3 : NaN):7 with lines lc i dt 2 notitle
  }
  unset multiplot
}
