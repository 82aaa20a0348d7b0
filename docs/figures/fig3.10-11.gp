# fig3.10-11: drawn by mcastsim run fig3.10-11
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig3.10-11.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'fig3.10-11.svg' }
  else { set terminal pngcairo size 1100,480; set output 'fig3.10-11.png' }
  set multiplot layout 1,2 title 'fig3.10-11: average of the maximum receive step, all-port, 100 random sets, source 0'
  set xlabel 'destinations d'; set ylabel 'steps'; set key bottom right
  al = 'u-cube maxport combine w-sort'
  do for [n in '6 10'] {
    set title n.'-cube (solid: maximum; dashed: average over destinations)'
    set yrange [0:n+0.5]
    plot for [i=1:4] csv using (($1 == n+0 && strcol(2) eq word(al, i)) ? $4 : NaN):6 \
        with linespoints lc i title word(al, i), \
      for [i=1:4] csv using (($1 == n+0 && strcol(2) eq word(al, i)) ? $4 : NaN):8 \
        with lines lc i dt 2 notitle
  }
  unset multiplot
}
