# fig6.6: drawn by mcastsim run fig6.6
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'fig6.6.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1500,480 dynamic; set output 'fig6.6.svg' }
  else { set terminal pngcairo size 1500,480; set output 'fig6.6.png' }
  ttl = 'fig6.6: 4096-node 3D torus, low start-up (tau_S 10000, tau_R 8000, tau_n 500 ns)'
  set multiplot layout 1,3 title ttl
  set logscale x 2; set xtics (16,32,64,128,256,512,1024) font ',9'
  set xlabel 'destinations m'; set ylabel 'latency (us)'
  do for [L in '8 512 16384'] {
    set title L.' flits (solid: average, dashed: maximum)'
    plot for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(3) eq L) ? $2 : NaN):6 \
        with linespoints lc i title word(algos, i), \
      for [i=1:5] csv using ((strcol(4) eq word(algos, i) && strcol(3) eq L) ? $2 : NaN):7 \
        with lines lc i dt 2 notitle
  }
  unset multiplot
}
