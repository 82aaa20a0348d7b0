# seed001: drawn by mcastsim run seed001
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed001.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'seed001.svg' }
  else { set terminal pngcairo size 1100,480; set output 'seed001.png' }
  set multiplot layout 1,2 title 'Libeskind-Hadas et al. (1998), Fig 3: one multicast on a random lattice of switches'
  set xlabel 'destinations d'; set ylabel 'latency (us)'; set key bottom right noenhanced
  set samples 2000; set logscale x 2
  do for [sw in '64 256'] {
    set title sw.' switches'; set xrange [1:sw - 1]
    plot csv using ((strcol(1) eq sw) ? $2 : NaN):5 with linespoints title 'recursive doubling (up*-down*)', \
      ceil(log(floor(x) + 1) / log(2)) * 10 with lines lc 'black' dt 2 title 'ceil(log2(d+1)) t_startup'
  }
  unset multiplot
}
