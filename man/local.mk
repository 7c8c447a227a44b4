# SPDX-License-Identifier: BSD-2-Clause
dist_man_MANS += man/pam_u2f.8 man/pamu2fcfg.1 man/pam_u2f.conf.5
