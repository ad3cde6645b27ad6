/* Whether a ruling cites a rule: shared by the rules engines' tests. */
#ifndef DYEREF_TEST_CITES_H
#define DYEREF_TEST_CITES_H

#include <stdbool.h>
#include <stddef.h>

/* Whether why[0..n) (rule IDs) holds id. */
bool test_cites(const char *const *why, size_t n, const char *id);

/* The same for a pointer to any ruling with why[] and n_why (bd_ruling,
 * the dice rulings). */
#define CITES(r, id) test_cites((r)->why, (r)->n_why, (id))

#endif /* DYEREF_TEST_CITES_H */
