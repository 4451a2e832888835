/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl's verbs, one file each.  main.c holds the verb table and dispatches;
 * each verb parses its own options (argv[0] is the verb name) and returns the
 * process exit status.
 */

int verb_query(int argc, char *argv[]);
int verb_follow(int argc, char *argv[]);
int verb_summary(int argc, char *argv[]);
int verb_export(int argc, char *argv[]);
int verb_decode(int argc, char *argv[]);
int verb_status(int argc, char *argv[]);
int verb_rules(int argc, char *argv[]);
int verb_pt(int argc, char *argv[]);
int verb_slots(int argc, char *argv[]);
int verb_pages(int argc, char *argv[]);
int verb_dimms(int argc, char *argv[]);
