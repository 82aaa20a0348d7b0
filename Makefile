# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcast: top-level Makefile (GNU make).
#
#   make                 userspace into build/, and mcast.ko if kernel headers
#                        are installed (otherwise says so and skips it)
#   make check           unit, CLI and library tests under ASan/UBSan, then
#                        the VM tests of mcast.ko on every installed kernel
#                        (VM=0 skips those)
#   make vmcheck         the VM tests only (tests/vm/run.sh)
#   make vmcheck-full    all of them on every kernel, not a subset on the 2nd
#   make debugcheck      the VM tests on a KASAN/lockdep/kmemleak/UBSAN 6.1
#   make demo            a few `mcastctl plan` examples from the dissertation
#   make demo-cluster    a 16-node torus cluster in a QEMU guest: multicasts,
#                        receivers, steps, statistics (tests/vm/demo.sh)
#   make bench-cluster   mcastperf on 16- and 64-node tori in the guest
#   make bench-daemon    mcastd's join-to-converged time and control traffic
#                        on 16 and 64 nodes in the guest
#   make bench-cube      mcastperf on cube:4 in the VM: u-cube, maxport,
#                        combine, w-sort against u-torus and separate
#   make bench-rb        mcastperf on torus:4x4 in the VM: recursion-based
#                        broadcast against u-torus and separate
#   make bench-fabric    S-, Md-, Mu-torus(r), U-torus on the simulated IR
#                        fabric in the VM: virtual latency
#                        (Robinson 1994, ch. 6)
#   make bench-worm      the fabric model at the worm and at the flit level:
#                        ms per 4096-node U-torus broadcast (no VM)
#   make bench-switch    mcastperf on a 16-host fat tree of switches in the
#                        guest: up*-down* order against node-id order
#   make bench           build and run the benchmarks
#   make figures         the seeds' studies reproduced by mcastsim run into
#                        docs/figures/ (CSV, checks, PNG and SVG; gnuplot)
#   make module          mcast.ko and mcast_irsim.ko only (fails without
#                        kernel headers)
#   make modules_install install mcast.ko under $(INSTALL_MOD_PATH)/lib/modules/
#                        <release>/$(INSTALL_MOD_DIR), then run $(DEPMOD)
#                        unless staged (INSTALL_MOD_PATH set; DEPMOD=true
#                        skips it too)
#   make install         mcastctl and mcastmon into $(DESTDIR)$(BINDIR), mcastd
#                        into $(SBINDIR), their man pages and mcast(7), its
#                        systemd unit, the modules-load.d entry, their bash
#                        completion into $(BASHCOMPDIR), libmcast
#                        (install-lib), and the module (INSTALL_MOD_PATH
#                        defaults to $(DESTDIR))
#   make install-tools   mcastbed, mcastbed-peers, mcastbed-routes,
#                        mcastbed-swroutes, mcastperf and mcastsim into
#                        $(DESTDIR)$(BINDIR), mcastsim(1), mcastperf(1) and
#                        mcastbed(8) into $(MANDIR)
#   make man             the man pages under build/man/, with the version
#   make install-lib     libmcast.so.1, its headers, libmcast.pc and man pages
#                        under $(DESTDIR)$(PREFIX): mcast.h in $(INCLUDEDIR),
#                        the kernel's uapi header in $(INCLUDEDIR)/mcast/linux
#                        (not /usr/include/linux, linux-libc-dev's), found
#                        through pkg-config's -I$(INCLUDEDIR)/mcast
#   make deb             the Debian packages (debian/) into build/deb/
#   make checkpatch      checkpatch.pl over kmod/ and plan/
#   make sparse          the module build under sparse (C=2), no warnings allowed
#   make clean
#
# Variables: CC, CFLAGS/EXTRA_CFLAGS/CPPFLAGS/LDFLAGS/LDLIBS (added after ours),
# V=1 (verbose), W=1 (extra kernel warnings), DESTDIR, PREFIX, BINDIR,
# LIBDIR, INCLUDEDIR, MANDIR, PKGCONFIGDIR, PKG_CONFIG, BASHCOMPDIR, UNITDIR
# (default $(PREFIX)/lib/systemd/system, or systemd.pc's with PREFIX=/usr),
# KERNELRELEASE (default: the newest version with /lib/modules/*/build),
# KDIR (default: /lib/modules/$(KERNELRELEASE)/build).

# Variables set on our command line or in the environment (CC, CFLAGS,
# EXTRA_CFLAGS, ...) must not leak into Kbuild, which has its own meaning for
# several of them; what Kbuild needs is passed explicitly in KBUILD_ARGS.
MAKEOVERRIDES :=
unexport CC AR CFLAGS EXTRA_CFLAGS CPPFLAGS LDFLAGS LDLIBS

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$$/\1/p' dkms.conf)

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-8s %s\n'
endif

B := build

# The kernel to build mcast.ko for: the newest one whose build tree is
# installed.  Not `uname -r`: the build machines run another kernel than the
# one the module is for.  DKMS passes KERNELRELEASE and KDIR itself.
ifeq ($(origin KERNELRELEASE),undefined)
KERNELRELEASE := $(shell for d in /lib/modules/*/build; do \
	[ -f "$$d/Makefile" ] && basename "$$(dirname "$$d")"; \
	done 2>/dev/null | sort -V | tail -n 1)
endif
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
HAVE_KDIR := $(wildcard $(KDIR)/Makefile)

# ---------------------------------------------------------------- userspace

CC ?= cc
AR ?= ar
CFLAGS ?=
EXTRA_CFLAGS ?=
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install
PKG_CONFIG ?= pkg-config

# libnl-genl-3 for the netlink commands of mcastctl and for mcastmon.
NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
# liburing for libmcast's io_uring tests (libmcast itself does not link it).
URING_LIBS := $(shell $(PKG_CONFIG) --libs liburing 2>/dev/null || echo -luring)

WARN_CFLAGS := -Wall -Wextra -Werror
INC_CFLAGS := -Iplan -Iinclude -Iinclude/uapi
DEF_CFLAGS := -DMCAST_VERSION='"$(VERSION)"'
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	      -fno-omit-frame-pointer

# Ours first, the user's after, so `make CFLAGS=-O0` or `CFLAGS+=...` win.
# PART_CFLAGS: set per directory below (libnl, libmcast's header).
U_CFLAGS = -std=gnu11 -O2 -g $(WARN_CFLAGS) $(INC_CFLAGS) $(DEF_CFLAGS) \
	   $(PART_CFLAGS) -MMD -MP $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
A_CFLAGS = -std=gnu11 -O1 -g $(SAN_CFLAGS) $(WARN_CFLAGS) $(INC_CFLAGS) \
	   $(DEF_CFLAGS) $(PART_CFLAGS) -Itests/unit -MMD -MP $(CPPFLAGS) \
	   $(CFLAGS) $(EXTRA_CFLAGS)
U_LDFLAGS = $(LDFLAGS)
A_LDFLAGS = $(SAN_CFLAGS) $(LDFLAGS)

PLAN_SRCS  := $(sort $(wildcard plan/*.c))
CTL_SRCS   := $(sort $(wildcard utils/mcastctl/*.c))
LIB_SRCS   := $(sort $(wildcard utils/lib/*.c))
BENCH_SRCS := $(sort $(wildcard tests/bench/*.c))
UNIT_SRCS  := $(sort $(wildcard tests/unit/*.c))
MCL_SRCS   := $(sort $(wildcard libmcast/*.c))
MON_SRCS   := $(sort $(wildcard utils/mcastmon/*.c))
LTEST_SRCS := $(sort $(wildcard tests/lib/*.c))

PLAN_OBJS   := $(PLAN_SRCS:%.c=$(B)/obj/%.o)
CTL_OBJS    := $(CTL_SRCS:%.c=$(B)/obj/%.o) $(LIB_SRCS:%.c=$(B)/obj/%.o)
PLAN_AOBJS  := $(PLAN_SRCS:%.c=$(B)/asan/obj/%.o)
CTL_AOBJS   := $(CTL_SRCS:%.c=$(B)/asan/obj/%.o) \
	       $(LIB_SRCS:%.c=$(B)/asan/obj/%.o)
MCL_OBJS    := $(MCL_SRCS:%.c=$(B)/pic/obj/%.o)
MCL_AOBJS   := $(MCL_SRCS:%.c=$(B)/asan/obj/%.o)
# mcastctl, mcastmon and mcastd share utils/lib: netlink, parsers, JSON.
MON_SHARED  := $(LIB_SRCS)
MON_OBJS    := $(MON_SRCS:%.c=$(B)/obj/%.o) $(MON_SHARED:%.c=$(B)/obj/%.o)
MON_AOBJS   := $(MON_SRCS:%.c=$(B)/asan/obj/%.o) \
	       $(MON_SHARED:%.c=$(B)/asan/obj/%.o)

LIB      := $(B)/libmcplan.a
ALIB     := $(B)/asan/libmcplan.a
CTL      := $(if $(CTL_SRCS),$(B)/mcastctl)
ACTL     := $(if $(CTL_SRCS),$(B)/asan/mcastctl)
BENCHES  := $(BENCH_SRCS:tests/bench/%.c=$(B)/bench/%)
UNITS    := $(UNIT_SRCS:tests/unit/%.c=$(B)/asan/unit/%)
MON      := $(if $(MON_SRCS),$(B)/mcastmon)
AMON     := $(if $(MON_SRCS),$(B)/asan/mcastmon)
LTESTS   := $(LTEST_SRCS:tests/lib/%.c=$(B)/asan/libtest/%)
# The same, against build/lib/libmcast.so, for the VM (tests/vm/guest/lib_*.t)
VMLTESTS := $(LTEST_SRCS:tests/lib/%.c=$(B)/libtest/%)

# libmcast: SONAME libmcast.so.MAJOR, exports only what libmcast.map lists.
# Its version, MAJOR.MINOR, is written once: mcast.h's LIBMCAST_VERSION_*
# (the newest node of the map is MCAST_MAJOR.MINOR: tests/cli/lib_abi.t).
MCL_VERSION_OF = $(shell sed -n 's/^\#define LIBMCAST_VERSION_$(1)[ \t]*\([0-9]*\)$$/\1/p' libmcast/mcast.h 2>/dev/null)
MCL_MAJOR := $(call MCL_VERSION_OF,MAJOR)
MCL_MINOR := $(call MCL_VERSION_OF,MINOR)
MCL_SONAME := libmcast.so.$(MCL_MAJOR)
MCL_REAL := libmcast.so.$(MCL_MAJOR).$(MCL_MINOR).0
MCL_DIR := $(B)/lib
MCL := $(MCL_DIR)/$(MCL_REAL)
MCL_LINKS := $(MCL_DIR)/$(MCL_SONAME) $(MCL_DIR)/libmcast.so
MCL_PC := $(MCL_DIR)/libmcast.pc
MCL_MANS := $(patsubst %,$(B)/man/%,$(sort $(wildcard libmcast/man/*.3)))
EXAMPLES := $(patsubst libmcast/examples/%.c,$(B)/examples/%,\
	    $(sort $(wildcard libmcast/examples/*.c)))

$(B)/obj/utils/mcastctl/%.o $(B)/asan/obj/utils/mcastctl/%.o \
$(B)/obj/utils/lib/%.o $(B)/asan/obj/utils/lib/%.o: \
	PART_CFLAGS = $(NL_CFLAGS) -Iutils/lib
$(B)/obj/utils/mcastmon/%.o $(B)/asan/obj/utils/mcastmon/%.o: \
	PART_CFLAGS = $(NL_CFLAGS) -Iutils/lib -Iutils/mcastctl
$(B)/pic/obj/%.o $(B)/asan/obj/libmcast/%.o $(B)/asan/obj/tests/lib/%.o \
$(B)/obj/libmcast/examples/%.o: PART_CFLAGS = -Ilibmcast
$(B)/obj/tests/lib/%.o: PART_CFLAGS = -Ilibmcast -Itests/unit

$(B)/obj/%.o: %.c
	$(quiet) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_CFLAGS) -c -o $@ $<

$(B)/asan/obj/%.o: %.c
	$(quiet) CC-ASAN $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_CFLAGS) -c -o $@ $<

$(B)/pic/obj/%.o: %.c
	$(quiet) CC-PIC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(LIB): $(PLAN_OBJS)
	$(quiet) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(ALIB): $(PLAN_AOBJS)
	$(quiet) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(B)/mcastctl: $(CTL_OBJS) $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(NL_LIBS) $(LDLIBS)

$(B)/asan/mcastctl: $(CTL_AOBJS) $(ALIB)
	$(quiet) LD $@
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(NL_LIBS) $(LDLIBS)

# The VM tests' raw netlink/ioctl probe (tests/vm/guest-src).
PROBE := $(B)/mcast_probe
$(PROBE): $(B)/obj/tests/vm/guest-src/mcast_probe.o $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(LDLIBS)

# ... and its forger of datagrams, which needs nothing of ours (wire.c:
# the documented wire format and seal, its own copy).
FORGE := $(B)/mcast_forge
$(FORGE): $(B)/obj/tests/vm/guest-src/mcast_forge.o \
	$(B)/obj/tests/vm/guest-src/wire.o
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^

# ... and the key-holding peer that lies in live transfers (net_fuzz_auth).
FUZZPEER := $(B)/mcast_fuzzpeer
$(FUZZPEER): $(B)/obj/tests/vm/guest-src/mcast_fuzzpeer.o \
	$(B)/obj/tests/vm/guest-src/wire.o
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^

$(B)/mcastmon: $(MON_OBJS) $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(NL_LIBS) $(LDLIBS)

$(B)/asan/mcastmon: $(MON_AOBJS) $(ALIB)
	$(quiet) LD $@
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(NL_LIBS) $(LDLIBS)

$(MCL): $(MCL_OBJS) libmcast/libmcast.map
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -shared -fPIC $(U_LDFLAGS) -Wl,-soname,$(MCL_SONAME) \
		-Wl,--version-script=libmcast/libmcast.map -Wl,--no-undefined \
		-o $@ $(MCL_OBJS) $(LDLIBS)

$(MCL_LINKS): $(MCL)
	$(quiet) LN $@
	$(Q)ln -sf $(MCL_REAL) $@

# Regenerated when PREFIX/LIBDIR/INCLUDEDIR/VERSION change, so that
# `make install PREFIX=...` installs a file that says where it went.
MCL_PC_SED = -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	     -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'
$(MCL_PC): libmcast/libmcast.pc.in FORCE
	$(Q)mkdir -p $(@D)
	$(Q)sed $(MCL_PC_SED) $< > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else \
		printf '  %-8s %s\n' GEN $@; mv -f $@.tmp $@; fi

# In-tree programs find build/lib by an absolute rpath (also inside the VM,
# whose harness copies the libraries ldd reports to the same paths).
$(B)/examples/%: $(B)/obj/libmcast/examples/%.o $(MCL_LINKS)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $< -L$(MCL_DIR) -Wl,-rpath,$(CURDIR)/$(MCL_DIR) \
		-lmcast $(LDLIBS)

$(B)/asan/libtest/%: $(B)/asan/obj/tests/lib/%.o $(MCL_AOBJS)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(URING_LIBS) $(LDLIBS)

$(B)/libtest/%: $(B)/obj/tests/lib/%.o $(MCL_LINKS)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $< -L$(MCL_DIR) -Wl,-rpath,$(CURDIR)/$(MCL_DIR) \
		-lmcast $(URING_LIBS) $(LDLIBS)

.PHONY: FORCE
FORCE:

# Man pages: each source's .TH says "mcast @VERSION@", which becomes
# dkms.conf's version under build/man/ (what make install installs), so
# no two pages can name different versions.  .so pages pass unchanged.
MAN_SRCS := $(sort $(wildcard daemon/*.[1-8] kmod/*.[1-8] utils/*/*.[1-8] \
	    libmcast/man/*.3))
MAN_OUT := $(MAN_SRCS:%=$(B)/man/%)
$(MAN_OUT): $(B)/man/%: % dkms.conf
	$(quiet) GEN $@
	$(Q)mkdir -p $(@D)
	$(Q)sed 's|@VERSION@|$(VERSION)|g' $< > $@
.PHONY: man
man: $(MAN_OUT)

$(B)/bench/%: $(B)/obj/tests/bench/%.o $(LIB)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/asan/unit/%: $(B)/asan/obj/tests/unit/%.o $(ALIB)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(LDLIBS)

# mcastctl stats show's formatters (statfmt.c, statprom.c) need no
# netlink: their test links them alone.
$(B)/asan/obj/tests/unit/test_stats.o: PART_CFLAGS = -Iutils/mcastctl
$(B)/asan/unit/test_stats: $(B)/asan/obj/tests/unit/test_stats.o \
	$(B)/asan/obj/utils/mcastctl/statfmt.o \
	$(B)/asan/obj/utils/mcastctl/statprom.o $(ALIB)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(LDLIBS)

# The topology-file parser's test links it and the parse.c helpers it uses.
$(B)/asan/obj/tests/unit/test_switchfile.o: PART_CFLAGS = -Iutils/lib
$(B)/asan/unit/test_switchfile: $(B)/asan/obj/tests/unit/test_switchfile.o \
	$(B)/asan/obj/utils/lib/switchfile.o $(B)/asan/obj/utils/lib/parse.o $(ALIB)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(LDLIBS)

# Keep the objects of the pattern-built programs.
.SECONDARY:

# (not under the trees of other builds there: the VM's, the debug kernel)
-include $(shell find $(B) \( -path $(B)/vm -o -path $(B)/debug-kernel \) -prune \
	     -o -name '*.d' -type f -print 2>/dev/null)

# mcastperf: multicast latency/throughput between testbed nodes (libmcast),
# with utils/lib's parsers (and the planning core they stand on).
PERF := $(B)/mcastperf
PERF_OBJS := $(B)/obj/utils/mcastperf/mcastperf.o $(B)/obj/utils/lib/parse.o \
	     $(LIB)
$(B)/obj/utils/mcastperf/%.o: PART_CFLAGS = -Ilibmcast -Iutils/lib
$(PERF): $(PERF_OBJS) $(MCL_LINKS)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $(PERF_OBJS) -L$(MCL_DIR) \
		-Wl,-rpath,$(CURDIR)/$(MCL_DIR) -lmcast $(LDLIBS)
# ... and the one install-tools installs: no RUNPATH into the build tree,
# it finds libmcast.so.1 where install-lib put it (the loader's paths).
PERF_INST := $(B)/inst/mcastperf
$(PERF_INST): $(PERF_OBJS) $(MCL_LINKS)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $(PERF_OBJS) -L$(MCL_DIR) -lmcast $(LDLIBS)

# mcastbed-peers: mcastbed's bulk peer configuration (raw netlink, no libnl).
BEDPEERS := $(B)/mcastbed-peers
$(BEDPEERS): $(B)/obj/utils/mcastbed/mcastbed-peers.o
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(LDLIBS)

# mcastbed-routes: the routes mcastbed reroute installs after nodes died.
BEDROUTES := $(B)/mcastbed-routes
$(BEDROUTES): $(B)/obj/utils/mcastbed/mcastbed-routes.o
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(LDLIBS)

# mcastbed-swroutes: the switches, links and up*-down* routes of a switched
# testbed (mcastbed up switch:FILE), from a topology file.
BEDSWROUTES := $(B)/mcastbed-swroutes
$(B)/obj/utils/mcastbed/mcastbed-swroutes.o: PART_CFLAGS = -Iutils/lib
$(BEDSWROUTES): $(B)/obj/utils/mcastbed/mcastbed-swroutes.o \
	$(B)/obj/utils/lib/switchfile.o $(B)/obj/utils/lib/parse.o $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(LDLIBS)

# mcastsim: multicasts on the simulated IR fabric, in userspace (the same
# plan/fabric.c the kernel's fabric runs), with mcastctl's parsers.
SIM := $(B)/mcastsim
$(B)/obj/utils/mcastsim/%.o: PART_CFLAGS = -Iutils/lib
SIM_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(sort $(wildcard utils/mcastsim/*.c)))
$(SIM): $(SIM_OBJS) $(B)/obj/utils/lib/parse.o $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ -lpthread -lm $(LDLIBS)

# mcastd: the daemon (daemon/).  Its core (the cluster view, the control
# protocol, the config file) needs no netlink, so the unit tests that
# simulate a cluster of daemons (tests/unit/test_mcastd_*.c) link only it.
MCD_CORE    := daemon/view.c daemon/proto.c daemon/conf.c daemon/replay.c
MCD_SRCS    := $(sort $(wildcard daemon/*.c))
MCD_LIBCORE    := parse.o switchtopo.o switchfile.o
MCD_CORE_OBJS  := $(patsubst %.c,$(B)/obj/%.o,$(wildcard $(MCD_CORE))) \
		  $(addprefix $(B)/obj/utils/lib/,$(MCD_LIBCORE))
MCD_CORE_AOBJS := $(patsubst %.c,$(B)/asan/obj/%.o,$(wildcard $(MCD_CORE))) \
		  $(addprefix $(B)/asan/obj/utils/lib/,$(MCD_LIBCORE))
MCD_OBJS    := $(MCD_SRCS:%.c=$(B)/obj/%.o) $(LIB_SRCS:%.c=$(B)/obj/%.o)
MCD_AOBJS   := $(MCD_SRCS:%.c=$(B)/asan/obj/%.o) \
	       $(LIB_SRCS:%.c=$(B)/asan/obj/%.o)
MCD  := $(if $(wildcard daemon/mcastd.c),$(B)/mcastd)
AMCD := $(if $(wildcard daemon/mcastd.c),$(B)/asan/mcastd)
# libibverbs: mcastd lists the host's RDMA ports (daemon/rdma.c).
# IBVERBS=auto (default): if pkg-config finds it; 0: never; 1: or fail.
IBVERBS ?= auto
ifneq ($(IBVERBS),0)
IBV_CFLAGS := $(shell $(PKG_CONFIG) --exists libibverbs 2>/dev/null && \
	echo -DMCD_HAVE_IBVERBS $$($(PKG_CONFIG) --cflags libibverbs))
IBV_LIBS := $(if $(IBV_CFLAGS),$(shell $(PKG_CONFIG) --libs libibverbs))
endif
ifeq ($(IBVERBS)$(IBV_CFLAGS),1)
$(error IBVERBS=1 but pkg-config finds no libibverbs)
endif
# rdma.o is rebuilt when that choice changes (IBVERBS=0, then not)
$(B)/obj/daemon/rdma.o $(B)/asan/obj/daemon/rdma.o: $(B)/ibverbs.flags
$(B)/ibverbs.flags: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(IBV_CFLAGS) $(IBV_LIBS)' | cmp -s - $@ || \
		echo '$(IBV_CFLAGS) $(IBV_LIBS)' > $@
$(B)/obj/daemon/%.o $(B)/asan/obj/daemon/%.o \
$(B)/asan/obj/tests/unit/test_mcastd_%.o: \
	PART_CFLAGS = $(NL_CFLAGS) -Iutils/lib -Idaemon $(IBV_CFLAGS)
$(B)/mcastd: $(MCD_OBJS) $(LIB)
	$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $^ $(NL_LIBS) $(URING_LIBS) $(IBV_LIBS) $(LDLIBS)
$(B)/asan/mcastd: $(MCD_AOBJS) $(ALIB)
	$(quiet) LD $@
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(NL_LIBS) $(URING_LIBS) $(IBV_LIBS) $(LDLIBS)
$(B)/asan/unit/test_mcastd_%: $(B)/asan/obj/tests/unit/test_mcastd_%.o \
	$(MCD_CORE_AOBJS) $(ALIB)
	$(quiet) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(A_LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: mcastd
mcastd: $(MCD)
userspace: $(MCD)

.PHONY: mcastperf mcastsim
mcastperf: $(PERF)
mcastsim: $(SIM)
userspace: $(PERF) $(SIM) $(BEDPEERS) $(BEDROUTES) $(BEDSWROUTES)

.PHONY: all userspace lib libmcast mcastctl mcastmon examples benches
all: userspace $(if $(HAVE_KDIR),module,module-skip)
userspace: man $(LIB) $(CTL) $(MON) $(PROBE) $(FORGE) $(FUZZPEER) libmcast $(EXAMPLES) $(VMLTESTS) $(BENCHES)
lib: $(LIB)
libmcast: $(MCL) $(MCL_LINKS) $(MCL_PC)
mcastctl: $(CTL)
mcastmon: $(MON)
examples: $(EXAMPLES)
benches: $(BENCHES)

VM ?= 1

.PHONY: check unit vmcheck vmcheck-full debugcheck
vmcheck: userspace
	$(Q)tests/run.sh tests/vm/run.sh
# The VM tests on a debug build of Debian's 6.1 (KASAN, kmemleak, lockdep,
# UBSAN, DEBUG_OBJECTS, DEBUG_ATOMIC_SLEEP: tests/vm/debug_kernel.sh builds
# it once under build/debug-kernel and installs it there; half an hour here).
# Any report of theirs in the guest's log fails the run.  DEBUG_TESTS
# names tests (default: all); VM_FULL=0 runs them at CI's scale (default:
# vmcheck-full's).  Slow under TCG (5 to 35 times the usual: receivers
# wait VM_TIME_SCALE times longer; net_offload, 4 minutes on Debian's
# kernel, needs more than 50 there, hence 100 a test); not part of make
# check.
debugcheck: userspace
	$(Q)rel=$$(tests/vm/debug_kernel.sh) && \
	 VM_KERNEL="$$rel" VM_KERNEL_ROOT="$(CURDIR)/build/debug-kernel/root" VM_TEST_NAMES="$(DEBUG_TESTS)" VM_FULL=$${VM_FULL:-1} \
	 VM_MEM=$${VM_MEM:-2048} VM_TIMEOUT=$${VM_TIMEOUT:-14400} \
	 VM_TIME_SCALE=$${VM_TIME_SCALE:-10} \
	 VM_SUITE_TIMEOUT=$${VM_SUITE_TIMEOUT:-14400} \
	 VM_TEST_TIMEOUT=$${VM_TEST_TIMEOUT:-6000} tests/run.sh tests/vm/run.sh

# Every VM test on every kernel (make check and vmcheck run the whole suite
# on the first kernel and a subset on the others: tests/vm/run.sh).
vmcheck-full: userspace
	$(Q)VM_FULL=1 tests/run.sh tests/vm/run.sh
unit: $(UNITS)
check: $(UNITS) $(CTL) $(ACTL) $(MON) $(AMON) $(AMCD) $(LTESTS) libmcast $(EXAMPLES) userspace
	$(Q)VM_TESTS=$(VM) UNIT_DIR=$(B)/asan/unit LIBTEST_DIR=$(B)/asan/libtest \
	 MCASTCTL=$(if $(ACTL),$(CURDIR)/$(ACTL),$(CURDIR)/$(B)/mcastctl) \
	 MCASTMON=$(if $(AMON),$(CURDIR)/$(AMON),$(CURDIR)/$(B)/mcastmon) \
	 MCASTD=$(if $(AMCD),$(CURDIR)/$(AMCD),$(CURDIR)/$(B)/mcastd) \
	 LIBMCAST_DIR=$(CURDIR)/$(MCL_DIR) \
	 tests/run.sh

.PHONY: bench
bench: $(BENCHES)
	$(Q)set -e; for b in $(BENCHES); do \
		echo "== $$b"; ./$$b; \
	done

# Every experiment of mcastsim run (the seeds' figures) into docs/figures/:
# NAME.csv, NAME.txt (the seed's conclusions, checked), NAME.gp, .png, .svg.
# FIGURES_ARGS passes options (--model flit: the fabric's flit level, the
# same figures hours slower; --quick); FIGURES the experiments.
FIGURES ?= all
.PHONY: figures
figures: $(SIM)
	$(Q)$(SIM) run --dir docs/figures $(FIGURES_ARGS) $(FIGURES)

# The dissertation's worked examples: U-torus on a 10x10x10 unidirectional
# torus from (8,4,5) (Sec. 4.4, Fig 4.10), and S-torus / Mu-torus(2) on the
# 6x6 unidirectional torus of Figs 5.1 and 5.7 from (3,2).
DEMO_10 := 4,9,3 1,9,7 1,0,2 8,5,4 4,8,9 9,0,5 3,5,5 9,0,1 8,0,5 1,6,4
DEMO_6  := 0,5 4,5 3,4 5,4 4,3 1,2 2,1 5,1 1,0
DEMO_JQ := {algorithm, steps, order: [.order[] | map(tostring) | join(",")], stats, verified}
.PHONY: demo
demo: $(B)/mcastctl
	$(Q)set -e; run() { printf '\n$$ mcastctl %s\n' "$$*"; \
		$(B)/mcastctl "$$@"; }; \
	run plan -t torus:10x10x10 -a u-torus -s 8,4,5 \
		$(foreach c,$(DEMO_10),-d $(c)) --tree; \
	run plan -t torus:6x6 -a s-torus -s 3,2 $(foreach c,$(DEMO_6),-d $(c)); \
	run plan -t torus:6x6 -a mu-torus:2 -s 3,2 $(foreach c,$(DEMO_6),-d $(c)); \
	printf '\n$$ mcastctl plan -t torus:6x6 -a md-torus -s 3,2 %s --json' \
		'$(foreach c,$(DEMO_6),-d $(c))'; \
	if command -v jq > /dev/null; then printf " | jq '%s'\n" '$(DEMO_JQ)'; \
	else echo; fi; \
	$(B)/mcastctl plan -t torus:6x6 -a md-torus -s 3,2 \
		$(foreach c,$(DEMO_6),-d $(c)) --json > $(B)/demo.json; \
	if command -v jq > /dev/null; then jq '$(DEMO_JQ)' $(B)/demo.json; \
	else cat $(B)/demo.json; fi

# The README's main job: boot the first installed kernel in QEMU, build a
# 4x4 torus of netns nodes with utils/mcastbed/mcastbed, multicast, show who
# received what, when and from whom, the statistics and mcastctl plan's view.
.PHONY: demo-cluster
demo-cluster: userspace
	$(Q)tests/vm/run.sh --demo

# mcastperf on 16- and 64-node tori in the QEMU guest (tests/vm/bench.sh):
# U-torus against separate addressing, CSV and ratios.  Takes long (TCG).
# 4 GiB: 64 nodes share the guest, each with receive queues and
# reassembly memory bounded per node (64 MiB), not per machine.
.PHONY: bench-cluster
bench-cluster: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-7200} TEST_TIMEOUT=$${TEST_TIMEOUT:-7000} \
		VM_MEM=$${VM_MEM:-4096} tests/vm/run.sh --bench

# mcastd on 16- and 64-node testbeds in the guest (tests/vm/bench_daemon.sh):
# join-to-converged time (p50, p99) and control datagrams per node per
# second.  4 GiB: 64 daemons and 64 nodes' state in one guest.
.PHONY: bench-daemon
bench-daemon: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-3600} TEST_TIMEOUT=$${TEST_TIMEOUT:-3500} \
		VM_MEM=$${VM_MEM:-4096} tests/vm/run.sh --bench-daemon

# mcastperf on a switched testbed in the guest (tests/vm/bench_switch.sh):
# node 0 to the 15 others of docs/topologies/fat-tree-16-rr.topo, switch
# links at 100 Mbit/s, the up*-down* order of Libeskind-Hadas et al. (1998)
# against a binomial tree over node ids; latency and throughput per size,
# ratios, CSV.
.PHONY: bench-switch
bench-switch: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-1800} TEST_TIMEOUT=$${TEST_TIMEOUT:-1700} \
		VM_MEM=$${VM_MEM:-2048} tests/vm/run.sh --bench-switch

# mcastperf on a hypercube testbed in the guest (tests/vm/bench_cube.sh):
# node 0 to the others of cube:4, the algorithms of Robinson (1994), ch. 3,
# against u-torus and separate addressing; latency and throughput, ratios,
# CSV.
.PHONY: bench-cube
bench-cube: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-1800} TEST_TIMEOUT=$${TEST_TIMEOUT:-1700} \
		VM_MEM=$${VM_MEM:-2048} tests/vm/run.sh --bench-cube

# mcastperf broadcasting on a torus in the guest (tests/vm/bench_rb.sh):
# the recursion-based broadcast of Zhuang and Liberatore against u-torus and
# separate addressing; latency and throughput, ratios, CSV.
.PHONY: bench-rb
bench-rb: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-1800} TEST_TIMEOUT=$${TEST_TIMEOUT:-1700} \
		VM_MEM=$${VM_MEM:-2048} tests/vm/run.sh --bench-rb

# Robinson (1994), ch. 6, through the kernel (tests/vm/bench_fabric.sh): S-,
# Md-, Mu-torus(r) and U-torus on the simulated IR fabric, virtual latency to
# the last and the mean receiver.
.PHONY: bench-fabric
bench-fabric: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-1800} TEST_TIMEOUT=$${TEST_TIMEOUT:-1700} \
		VM_MEM=$${VM_MEM:-2048} tests/vm/run.sh --bench-fabric

# The fabric model's two levels of detail (tests/bench/fabric_bench.c): one
# 4096-node U-torus broadcast, ms per trial at the worm and the flit level.
.PHONY: bench-worm
bench-worm: $(B)/bench/fabric_bench
	$(Q)./$(B)/bench/fabric_bench

# ---- bench-peers: begin (utils/mcastpeers, tests/vm/bench_peers.sh) ----
# The peers mcast is compared with in `make bench-peers`: MPI_Bcast built
# against Open MPI and against MPICH (each with its own mpicc; left out
# when that MPI is not installed) and TIPC group broadcast.  They go to
# build/mcastpeers/; tests/vm/run.sh puts them in the guest.
PEERS_DIR := $(B)/mcastpeers
PEERS_SRC := utils/mcastpeers/peers.c utils/mcastpeers/peers.h
PEERS_CFLAGS = -std=gnu11 -O2 -g $(WARN_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
MPICC_OPENMPI ?= $(shell command -v mpicc.openmpi 2>/dev/null)
MPICC_MPICH ?= $(shell command -v mpicc.mpich 2>/dev/null)
PEERS_PROGS := $(PEERS_DIR)/tipc_bcast \
	$(if $(MPICC_OPENMPI),$(PEERS_DIR)/mpi_bcast.openmpi) \
	$(if $(MPICC_MPICH),$(PEERS_DIR)/mpi_bcast.mpich)

$(PEERS_DIR)/tipc_bcast: utils/mcastpeers/tipc_bcast.c $(PEERS_SRC)
	$(quiet) CC-LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PEERS_CFLAGS) $(U_LDFLAGS) -o $@ $< utils/mcastpeers/peers.c $(LDLIBS)

$(PEERS_DIR)/mpi_bcast.openmpi: utils/mcastpeers/mpi_bcast.c $(PEERS_SRC)
	$(quiet) MPICC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(MPICC_OPENMPI) $(PEERS_CFLAGS) $(U_LDFLAGS) -o $@ $< utils/mcastpeers/peers.c

$(PEERS_DIR)/mpi_bcast.mpich: utils/mcastpeers/mpi_bcast.c $(PEERS_SRC)
	$(quiet) MPICC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(MPICC_MPICH) $(PEERS_CFLAGS) $(U_LDFLAGS) -o $@ $< utils/mcastpeers/peers.c

.PHONY: mcastpeers bench-peers
mcastpeers: $(PEERS_PROGS)
userspace: $(PEERS_PROGS)

# mcast (U-torus, separate; each transport) against Open MPI's and MPICH's
# MPI_Bcast and TIPC group broadcast on the same 16- and 64-node tori, in
# one boot of the QEMU guest (tests/vm/bench_peers.sh).  Slow under TCG.
bench-peers: userspace
	$(Q)VM_TIMEOUT=$${VM_TIMEOUT:-14400} TEST_TIMEOUT=$${TEST_TIMEOUT:-14000} \
		VM_MEM=$${VM_MEM:-4096} tests/vm/run.sh --bench-peers
# ---- bench-peers: end ----

# The testbed and benchmark tools (not part of `make install`).
.PHONY: install-tools
install-tools: $(PERF_INST) $(SIM) $(BEDPEERS) $(BEDROUTES) $(BEDSWROUTES) man
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	sed 's|@VERSION@|$(VERSION)|g' utils/mcastbed/mcastbed > $(DESTDIR)$(BINDIR)/mcastbed
	chmod 0755 $(DESTDIR)$(BINDIR)/mcastbed
	$(INSTALL) -m 0755 $(BEDPEERS) $(DESTDIR)$(BINDIR)/mcastbed-peers
	$(INSTALL) -m 0755 $(BEDROUTES) $(DESTDIR)$(BINDIR)/mcastbed-routes
	$(INSTALL) -m 0755 $(BEDSWROUTES) $(DESTDIR)$(BINDIR)/mcastbed-swroutes
	$(INSTALL) -m 0755 $(PERF_INST) $(DESTDIR)$(BINDIR)/mcastperf
	$(INSTALL) -m 0755 $(SIM) $(DESTDIR)$(BINDIR)/mcastsim
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(B)/man/utils/mcastsim/mcastsim.1 \
		$(B)/man/utils/mcastperf/mcastperf.1 $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man8
	$(INSTALL) -m 0644 $(B)/man/utils/mcastbed/mcastbed.8 $(DESTDIR)$(MANDIR)/man8

# The Debian packages (debian/, issue 43): dpkg-buildpackage -b on a copy
# of the tree in build/deb/mcast-VERSION (it writes its output beside the
# tree it builds, and cleans build/), so build/deb/ ends with the .debs, the
# .changes and .buildinfo; then lintian over them.  Needs debhelper,
# dh-dkms, the build-deps of debian/control (dpkg-checkbuilddeps says
# which are missing) and lintian.
DEB_DIR := $(B)/deb
DEB_SRC := $(DEB_DIR)/mcast-$(VERSION)
.PHONY: deb
deb:
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
	$(Q)tar -cf - --exclude=./build --exclude=./.git --exclude='*.ko' \
		--exclude='*.o' --exclude='.*.cmd' . | tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -b -us -uc
	$(Q)rm -rf $(DEB_SRC)
	$(Q)ls $(DEB_DIR)
	$(Q)if command -v lintian > /dev/null; then \
		lintian $(DEB_DIR)/*.changes; \
	else echo "mcast: lintian not installed, not run" >&2; fi

.PHONY: install install-bin install-lib
install: install-bin install-lib install-system $(if $(HAVE_KDIR),modules_install,module-skip)

# mcast-metrics.service and .timer write mcastctl stats show --prometheus
# for node_exporter every 15 s (docs/metrics.md); the timer is left to
# enable (systemctl enable --now mcast-metrics.timer).
# The udev rule giving group "mcast" access to /dev/mcast, and the
# sysusers.d entry creating that group and user mcast, which mcastd.service
# runs as (run systemd-sysusers, or groupadd --system mcast and useradd
# --system -g mcast -d / -s /usr/sbin/nologin mcast, then udevadm trigger
# or reload the module).
UDEVRULESDIR ?= /lib/udev/rules.d
SYSUSERSDIR ?= /usr/lib/sysusers.d
MODULESLOADDIR ?= /usr/lib/modules-load.d
# systemd's units under the prefix (systemd reads /usr/local/lib/systemd/
# system too); with PREFIX=/usr where systemd.pc says (/lib/systemd/system
# on Debian 12, /usr/lib/systemd/system on merged-/usr systems).
ifeq ($(origin UNITDIR),undefined)
ifeq ($(PREFIX),/usr)
UNITDIR := $(or $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system)
else
UNITDIR := $(PREFIX)/lib/systemd/system
endif
endif
SYSCONFDIR ?= /etc
.PHONY: install-system
install-system:
	$(INSTALL) -d $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(MODULESLOADDIR) $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(SYSCONFDIR)/mcast
	$(INSTALL) -m 0644 systemd/60-mcast.rules $(DESTDIR)$(UDEVRULESDIR)/60-mcast.rules
	$(INSTALL) -m 0644 systemd/mcast.sysusers $(DESTDIR)$(SYSUSERSDIR)/mcast.conf
	$(INSTALL) -m 0644 systemd/mcast.modules-load $(DESTDIR)$(MODULESLOADDIR)/mcast.conf
	sed 's|@SBINDIR@|$(SBINDIR)|g' systemd/mcastd.service > $(DESTDIR)$(UNITDIR)/mcastd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/mcastd.service
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/mcast-metrics.service > $(DESTDIR)$(UNITDIR)/mcast-metrics.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/mcast-metrics.service
	$(INSTALL) -m 0644 systemd/mcast-metrics.timer $(DESTDIR)$(UNITDIR)/mcast-metrics.timer
	$(INSTALL) -m 0644 daemon/mcastd.conf.example \
		$(DESTDIR)$(SYSCONFDIR)/mcast/mcastd.conf.example
# bash completion: one script, loaded by whichever of the three names is
# completed first (bash-completion looks a file up by the command's name).
BASHCOMPDIR ?= /usr/share/bash-completion/completions
install-bin: $(CTL) $(MON) $(MCD) man
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0644 utils/completion/mcast.bash $(DESTDIR)$(BASHCOMPDIR)/mcastctl
	ln -sf mcastctl $(DESTDIR)$(BASHCOMPDIR)/mcastd
	ln -sf mcastctl $(DESTDIR)$(BASHCOMPDIR)/mcastmon
	$(if $(MCD),$(INSTALL) -m 0755 $(MCD) $(DESTDIR)$(SBINDIR)/mcastd)
	$(if $(MCD),$(INSTALL) -m 0644 $(B)/man/daemon/mcastd.8 $(DESTDIR)$(MANDIR)/man8)
	$(if $(MCD),$(INSTALL) -m 0644 $(B)/man/daemon/mcastd.conf.5 $(DESTDIR)$(MANDIR)/man5)
	$(if $(CTL),$(INSTALL) -m 0755 $(CTL) $(DESTDIR)$(BINDIR)/mcastctl)
	$(if $(CTL),$(INSTALL) -m 0644 $(B)/man/utils/mcastctl/mcastctl.8 $(DESTDIR)$(MANDIR)/man8)
	$(if $(MON),$(INSTALL) -m 0755 $(MON) $(DESTDIR)$(BINDIR)/mcastmon)
	$(if $(MON),$(INSTALL) -m 0644 $(B)/man/utils/mcastmon/mcastmon.8 $(DESTDIR)$(MANDIR)/man8)
	$(INSTALL) -m 0644 $(B)/man/kmod/mcast.7 $(DESTDIR)$(MANDIR)/man7

install-lib: libmcast man
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/mcast/linux $(DESTDIR)$(MANDIR)/man3
	$(INSTALL) -m 0755 $(MCL) $(DESTDIR)$(LIBDIR)/$(MCL_REAL)
	ln -sf $(MCL_REAL) $(DESTDIR)$(LIBDIR)/$(MCL_SONAME)
	ln -sf $(MCL_SONAME) $(DESTDIR)$(LIBDIR)/libmcast.so
	$(INSTALL) -m 0644 $(MCL_PC) $(DESTDIR)$(PKGCONFIGDIR)/libmcast.pc
	$(INSTALL) -m 0644 libmcast/mcast.h $(DESTDIR)$(INCLUDEDIR)/mcast.h
	$(INSTALL) -m 0644 include/uapi/linux/mcast.h \
		$(DESTDIR)$(INCLUDEDIR)/mcast/linux/mcast.h
	$(if $(MCL_MANS),$(INSTALL) -m 0644 $(MCL_MANS) $(DESTDIR)$(MANDIR)/man3)

# ------------------------------------------------------------------- kernel

KBUILD_ARGS = -C $(KDIR) M=$(CURDIR) \
	$(if $(V),V=$(V)) $(if $(W),W=$(W)) $(if $(C),C=$(C)) \
	$(if $(KCFLAGS),KCFLAGS='$(KCFLAGS)') \
	$(if $(INSTALL_MOD_PATH),INSTALL_MOD_PATH=$(INSTALL_MOD_PATH)) \
	$(if $(INSTALL_MOD_DIR),INSTALL_MOD_DIR=$(INSTALL_MOD_DIR))

# Debian's header packages have no System.map, so Kbuild's modules_install
# skips depmod: we run it ourselves.  They have no signing key either:
# without one, do not let modules_install try (and fail noisily) to sign.
DEPMOD ?= /sbin/depmod
INSTALL_MOD_PATH ?= $(DESTDIR)
KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	 $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
KSIGN_ARGS = $(if $(wildcard $(KDIR)/certs/signing_key.pem \
	       $(KDIR)/output/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)

.PHONY: module modules modules_install module-skip no-kdir
module modules: $(if $(HAVE_KDIR),,no-kdir)
	$(MAKE) $(KBUILD_ARGS) modules

modules_install: $(if $(HAVE_KDIR),module,no-kdir)
	$(MAKE) $(KBUILD_ARGS) $(KSIGN_ARGS) DEPMOD=true modules_install
	$(Q)if [ -n "$(INSTALL_MOD_PATH)" ]; then \
		echo "mcast: staged install, not running depmod"; \
	elif [ -x "$$(command -v $(DEPMOD))" ]; then \
		echo "$(DEPMOD) -a $(KREL)"; $(DEPMOD) -a $(KREL); \
	else echo "mcast: $(DEPMOD) not found, skipping depmod" >&2; fi

module-skip:
	@echo "mcast: no kernel headers found ($(if $(KERNELRELEASE),$(KDIR),/lib/modules/*/build)):" \
	      "skipping mcast.ko; install linux-headers-amd64 or set KDIR" >&2

no-kdir:
	@echo "mcast: no kernel build tree at $(if $(KERNELRELEASE),$(KDIR),/lib/modules/*/build);" \
	      "install linux-headers-amd64 or set KERNELRELEASE/KDIR" >&2
	@false

KMOD_SRCS = $(sort $(shell find kmod plan -name '*.[ch]'))

# checkpatch.pl and its data files, from Debian's linux-source-6.1 tarball.
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
CHECKPATCH := $(B)/checkpatch/scripts/checkpatch.pl
CHECKPATCH_FLAGS ?= --no-tree --quiet --show-types

$(CHECKPATCH):
	@test -f $(LINUX_SOURCE_TAR) || { echo "mcast: $(LINUX_SOURCE_TAR) missing;" \
		"install linux-source-6.1" >&2; false; }
	$(quiet) EXTRACT $(@D)
	$(Q)mkdir -p $(B)/checkpatch
	$(Q)tar -xJf $(LINUX_SOURCE_TAR) -C $(B)/checkpatch --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	$(Q)touch $@

.PHONY: checkpatch sparse
checkpatch: $(CHECKPATCH)
	$(Q)rc=0; for f in $(KMOD_SRCS); do \
		perl $(CHECKPATCH) $(CHECKPATCH_FLAGS) -f $$f || rc=1; \
	done; exit $$rc

# Every file is checked (C=2) whether rebuilt or not; any diagnostic fails.
sparse: $(if $(HAVE_KDIR),,no-kdir)
	$(Q)mkdir -p $(B)
	$(Q)$(MAKE) $(KBUILD_ARGS) C=2 modules > $(B)/sparse.log 2>&1; rc=$$?; \
	cat $(B)/sparse.log; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi; \
	if grep -E '(warning|error):' $(B)/sparse.log > /dev/null; then \
		echo "mcast: sparse reported problems" >&2; exit 1; fi

# ------------------------------------------------------------------- clean

.PHONY: clean module-clean
clean: module-clean
	$(Q)rm -rf $(B)

# Kbuild's output in the source tree (whichever kernel it was built for).
module-clean:
	$(Q)rm -f mcast.ko mcast.mod mcast.mod.c mcast.mod.o mcast.o \
		mcast_irsim.ko mcast_irsim.mod mcast_irsim.mod.c \
		mcast_irsim.mod.o mcast_irsim.o \
		.module-common.o Module.symvers modules.order .*.cmd
	$(Q)find kmod plan \( -name '*.o' -o -name '.*.cmd' -o -name '*.o.d' \) \
		-type f -delete
