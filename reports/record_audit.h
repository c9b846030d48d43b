/* record_audit: the `audit` object of reports/SCHEMA.md, and the one place
 * that says how a fingerprint value is written and read.
 *
 * cases/audit.c returns one instruction's audit as a C struct
 * (audit_result); tc_audit_object writes it as the record's object.
 *
 * Fingerprint values follow the field table (oracle/model_fields.h): an
 * integer field's number is a JSON number ("block":8), its one word stays a
 * string ("align_bits":"exact"), a bit pattern is "0x" and lower-case hex
 * ("nan":"0x7fff"), every other field its profile text ("acc":"f32:rz").
 * Audits recorded before 2026-11-24 wrote every value as the profile's
 * text ("block":"8", "nan":"0x7FFF"); both forms are read, and
 * tc_audit_normalized makes one of either so that they compare equal.
 */
#ifndef TC_RECORD_AUDIT_H
#define TC_RECORD_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "cases/audit.h"

/* The audit object of r (new reference): fingerprint, evidence,
 * verification, timing (the bench object of r's instruction in the array
 * timing, without kind and instr; null when none or timing is NULL),
 * fit_mismatches, counterexample_rounds, features, and answers when r kept
 * the cases; for an integer instruction the control's fields instead. */
json_t *tc_audit_object(const audit_result *r, const json_t *timing);

/* Field i's profile text (model_field_text) as the JSON value records
 * write (above). A new reference. */
json_t *tc_fingerprint_value(int field, const char *text);

/* The value v of fingerprint key `key`, in either form, as records write it
 * now (a new reference; keys outside the field table, and values that are
 * not text or an integer, are copied as they are). */
json_t *tc_fingerprint_normal(const char *key, const json_t *v);

/* The value v of key `key`, in either form, as the profile's text into buf
 * (NaN patterns in the profile's upper-case hex). false when v is neither
 * a string nor an integer. */
bool tc_fingerprint_text(const char *key, const json_t *v, char *buf, size_t len);

/* A copy of the audit object a (its fingerprint and evidence deep, the
 * rest shared) with the fingerprint's and evidence's values in the form
 * records write now: the copy of an old record and that of a new one of
 * the same fingerprint are json_equal. The caller decrefs it. */
json_t *tc_audit_normalized(const json_t *a);

/* The record checker's rule for an audit object's fingerprint and evidence
 * values (reports/record_check.c): a fingerprint whose `block` is a string
 * is of the old form (every field a string, NaN in upper-case hex); else
 * each field has its table type. false with err when not. */
bool tc_fingerprint_check(const json_t *fp, const json_t *evidence, char *err, size_t len);

#endif
