# seed001-multi: drawn by mcastsim run seed001-multi
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed001-multi.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'seed001-multi.svg' }
  else { set terminal pngcairo size 1100,480; set output 'seed001-multi.png' }
  set multiplot layout 1,2 title 'Libeskind-Hadas et al. (1998): Poisson multicasts to 16 random hosts, latency against arrival rate'
  set xlabel 'arrival rate (multicasts/ms)'; set ylabel 'latency (us)'; set key top left noenhanced
  set yrange [0:*]
  do for [i = 1:2] {
    sw = word('64 256', i); sat = word('275.00 225.00', i) + 0
    a = word('0.585240 0.228854', i) + 0; b = word('24.598526 39.916694', i) + 0
    set title sw.' switches'; set xrange [0:sat * 1.05]
    set arrow 1 from sat, graph 0 to sat, graph 1 nohead lc 'red' dt 3
    plot csv using ((strcol(1) eq sw && $11 == 0) ? $3 : NaN):6:7 with yerrorlines title 'below saturation (95 % CI)', \
      csv using ((strcol(1) eq sw) ? $3 : NaN):8 with lines lc 'black' dt 2 title 'one multicast alone', \
      (x <= sat ? a * x + b : NaN) with lines lc 'gray' title 'least squares below saturation', \
      NaN with lines lc 'red' dt 3 title 'saturation'
  }
  unset multiplot
}
