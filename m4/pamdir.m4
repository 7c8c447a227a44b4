# SPDX-License-Identifier: BSD-2-Clause
# PU_PROBE_PAMDIR: set PAMDIR to the directory libpam loads modules from.
# libpam dlopens "NAME.so" from the security/ directory next to itself
# (Linux-PAM's default SECUREDIR is $libdir/security of libpam's own
# build), so: ask the compiler where the libpam.so.0 it links lives, and
# take its security/ directory if it holds pam_unix.so. On a merged-/usr
# system (Debian 12) the same directory has two names; prefer the one a
# Debian package registered (dpkg -S knows /lib/x86_64-linux-gnu/security,
# not /usr/lib/...), so that the ownership check in PU_SUMMARY works.
# Falls back to LIBDIR/security with a warning.
AC_DEFUN([PU_PROBE_PAMDIR], [
  AC_MSG_CHECKING([where libpam loads modules from])
  PAMDIR=""
  pu_libpam=`$CC -print-file-name=libpam.so.0 2>/dev/null`
  AS_CASE([$pu_libpam], [/*], [], [pu_libpam=""])
  AS_IF([test -n "$pu_libpam" && test -e "$pu_libpam"], [
    pu_libdir=`cd "$(dirname "$pu_libpam")" && pwd -P`
    pu_cands="$pu_libdir/security"
    case $pu_libdir in
    /usr/lib/*) pu_cands="`echo "$pu_libdir" | sed 's|^/usr||'`/security $pu_cands" ;;
    esac
    for pu_c in $pu_cands; do
      AS_IF([test -z "$PAMDIR" && test -f "$pu_c/pam_unix.so" &&
             dpkg-query -S "$pu_c" >/dev/null 2>&1], [PAMDIR=$pu_c])
    done
    for pu_c in $pu_cands; do
      AS_IF([test -z "$PAMDIR" && test -f "$pu_c/pam_unix.so"], [PAMDIR=$pu_c])
    done
  ])
  AS_IF([test -n "$PAMDIR"], [AC_MSG_RESULT([$PAMDIR])], [
    PAMDIR='${libdir}/security'
    AC_MSG_RESULT([not found])
    AC_MSG_WARN([no libpam with a security/pam_unix.so found next to it: the module goes to LIBDIR/security, where libpam may not look; use --with-pam-dir=DIR])
  ])
])

# PU_EXPAND(VAR, VALUE): VAR = VALUE with ${prefix}-style references
# expanded as make would (for messages only).
AC_DEFUN([PU_EXPAND], [
  pu_e="$2"
  pu_i=0
  while test $pu_i -lt 10; do
    case $pu_e in *'${'*) eval pu_e=\"$pu_e\" ;; *) break ;; esac
    pu_i=`expr $pu_i + 1`
  done
  $1=$pu_e
])

# PU_SUMMARY: where make install puts things and which file the module
# reads, and a loud warning when make install would overwrite a file that
# a Debian package owns (the make install guard, tools/dpkg-guard.sh,
# then refuses).
AC_DEFUN([PU_SUMMARY], [
  pu_save_prefix=$prefix pu_save_exec_prefix=$exec_prefix
  test "x$prefix" != xNONE || prefix=$ac_default_prefix
  test "x$exec_prefix" != xNONE || exec_prefix=$prefix
  PU_EXPAND([pu_pamdir], [$PAMDIR])
  PU_EXPAND([pu_bindir], [$bindir])
  PU_EXPAND([pu_mandir], [$mandir])
  PU_EXPAND([pu_libexecdir], [$libexecdir])
  prefix=$pu_save_prefix exec_prefix=$pu_save_exec_prefix
  AS_IF([test "x$silent" != xyes], [
    echo
    echo "pam_u2f $PACKAGE_VERSION: make install puts"
    echo "  the PAM module   $pu_pamdir/pam_u2f.so"
    echo "  pamu2fcfg        $pu_bindir/pamu2fcfg"
    AS_IF([test "x$have_ldap" = xyes],
      [echo "  the LDAP helper  $pu_libexecdir/$PACKAGE/pam_u2f_ldap"])
    echo "  man pages        $pu_mandir"
    echo "  example config   $PAM_U2F_CONF (only if no file is there)"
    echo "The module and pamu2fcfg read $PAM_U2F_CONF."
  ])
  pu_owned=""
  for pu_f in "$pu_pamdir/pam_u2f.so" "$pu_bindir/pamu2fcfg"; do
    dnl merged /usr: dpkg may know the file under the other name
    case $pu_f in
    /usr/lib/*) pu_alias=`echo "$pu_f" | sed 's|^/usr||'` ;;
    /lib/*) pu_alias=/usr$pu_f ;;
    *) pu_alias=$pu_f ;;
    esac
    pu_pkg=`dpkg-query -S "$pu_f" "$pu_alias" 2>/dev/null | sed 's/:.*//' | head -n 1`
    test -z "$pu_pkg" || pu_owned="$pu_owned $pu_f ($pu_pkg)"
  done
  AS_IF([test -n "$pu_owned"], [
    AC_MSG_WARN([make install would overwrite files of Debian packages:$pu_owned; make install refuses to. Remove those packages first (apt remove libpam-u2f pamu2fcfg), or build and install our Debian package instead (README, "Debian package")])
  ])
])
