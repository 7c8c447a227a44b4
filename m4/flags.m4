# SPDX-License-Identifier: BSD-2-Clause
# PU_CHECK_CFLAG(FLAG, ACTION-IF-OK)
# Compile a trivial program with FLAG (and -Werror) and run ACTION-IF-OK
# when the compiler accepts it.
AC_DEFUN([PU_CHECK_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  pu_save_CFLAGS="$CFLAGS"
  CFLAGS="$CFLAGS -Werror $1"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); $2], [AC_MSG_RESULT([no])])
  CFLAGS="$pu_save_CFLAGS"
])

# PU_CHECK_LDFLAG(FLAG, ACTION-IF-OK)
AC_DEFUN([PU_CHECK_LDFLAG], [
  AC_MSG_CHECKING([whether the linker accepts $1])
  pu_save_LDFLAGS="$LDFLAGS"
  LDFLAGS="$LDFLAGS -Werror $1"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); $2], [AC_MSG_RESULT([no])])
  LDFLAGS="$pu_save_LDFLAGS"
])
