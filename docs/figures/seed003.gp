# seed003: drawn by mcastsim run seed003
set datafile separator ','
set datafile missing NaN
set datafile columnheaders
set key inside top left
set grid
algos = 's-torus md-torus mu-torus(8) mu-torus(64) mu-torus(2)'
csv = 'seed003.csv'
do for [term in 'pngcairo svg'] {
  if (term eq 'svg') { set terminal svg size 1100,480 dynamic; set output 'seed003.svg' }
  else { set terminal pngcairo size 1100,480; set output 'seed003.png' }
  names = 'RB RD SC NP-RD_d=1 NP-SC_d=1 NP-RD_d=2 NP-SC_d=2 NP-RD_d=3 NP-SC_d=3 NP-RD_d=4 NP-SC_d=4 NP-RD/SC_d=5'
  set multiplot layout 1,2 title 'Zhuang and Liberatore, Fig 4: RB against its baselines, 32x32 mesh, one-port, Ts 150, Tc 0.5'
  set logscale xy; set xlabel 'message length L'; set ylabel 'T'; set key top left font ',9' noenhanced
  set title 'RB against RD and NP-RD'
  plot for [i in '0 1 3 5 7 9 11'] csv every ::(i*11+1)::(i*11+10) using 4:5 \
    with linespoints lw (i == 0 ? 3 : 1) title word(names, i + 1)
  set title 'RB against SC and NP-SC'
  plot for [i in '0 2 4 6 8 10 11'] csv every ::(i*11+1)::(i*11+10) using 4:5 \
    with linespoints lw (i == 0 ? 3 : 1) title word(names, i + 1)
  unset multiplot
}
