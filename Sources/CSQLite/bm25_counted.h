#ifndef PLACEDB_CSQLITE_BM25_COUNTED_H
#define PLACEDB_CSQLITE_BM25_COUNTED_H
#include <sqlite3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// bm25_counted(fts, counts, w0, w1, ...): FTS5's own bm25(fts, w0, w1, ...)
// (fts5_aux.c, the same formula, k1 = 1.2, b = 0.75), except that the
// number of rows holding each phrase of the query may be given in `counts`
// (decimal numbers separated by spaces, in the order the phrases appear in
// the MATCH expression; a missing or negative one is counted). bm25()
// counts every phrase's rows on each query, a pass over the whole
// doclist of each word (about 1 ms for a word 70,000 places hold, at 1M
// places), before it can score the first row; a caller that keeps the
// counts pays that once. A phrase whose columns all weigh 0 may be given
// any count: it adds nothing to the score.

typedef struct {
    int nPhrase;
    double avgdl;
    double *aIDF;
    double *aFreq;
    double prefixIDF;
} csqlite_bm25_data;

static inline int csqlite_bm25_count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
    (void)api; (void)fts;
    (*(sqlite3_int64 *)user)++;
    return SQLITE_OK;
}

static inline void csqlite_bm25_free(void *p) { sqlite3_free(p); }

// bm25_prefixed(fts, counts, prefix, prefixRows, prefixColumns, text0, ...,
// w0, w1, ...): bm25_counted's score of the rows the MATCH expression
// finds, as if the expression also held `"prefix" *` (the last phrase,
// AND), with `prefixRows` the number of rows holding a word with that
// prefix. FTS5's prefix query merges the doclist of every word with the
// prefix in the whole index before it can skip to a row (at 1M places,
// about 60 ms for one letter), where the rows of the other phrases are
// often few. The row's first `prefixColumns` columns are given as text0...
// (what the table's content holds for the row, read by a join: FTS5's own
// read of an external content row costs several times more) and tokenized
// by the table's tokenizer; the weighted count of their words with the
// prefix is the prefix phrase's frequency, and a row holding none scores
// NULL (it would not match). The sum runs in the same order as
// bm25_counted's over the expression with the prefix phrase after the
// others (phrases of columns weighing 0, such as grid cells, add exactly 0
// wherever they stand): the same score, bit for bit.

typedef struct {
    const unsigned char *prefix;
    int nPrefix;
    double weight;
    double freq;
    int found;
} csqlite_bm25_prefix_scan;

static inline int csqlite_bm25_prefix_token(void *user, int tflags, const char *token, int nToken, int iStart,
                                            int iEnd) {
    (void)iStart; (void)iEnd;
    csqlite_bm25_prefix_scan *s = (csqlite_bm25_prefix_scan *)user;
    // A colocated token shares its position with the one before: FTS5
    // counts one instance per position.
    if ((tflags & FTS5_TOKEN_COLOCATED) == 0 && nToken >= s->nPrefix
        && memcmp(token, s->prefix, (size_t)s->nPrefix) == 0) {
        s->freq += s->weight;
        s->found = 1;
    }
    return SQLITE_OK;
}

// The score of both functions: `fixed` arguments come before the weights
// (1: counts; 4 + prefixColumns: counts, prefix, prefixRows, prefixColumns,
// the texts).
static inline void csqlite_bm25_score(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal,
                                      sqlite3_value **apVal, int fixed) {
    const double k1 = 1.2, b = 0.75;
    int rc = SQLITE_OK;
    csqlite_bm25_data *d = (csqlite_bm25_data *)api->xGetAuxdata(fts, 0);
    if (d == 0) {
        int nPhrase = api->xPhraseCount(fts);
        sqlite3_int64 nRow = 0, nToken = 0;
        d = (csqlite_bm25_data *)sqlite3_malloc64(sizeof(*d) + sizeof(double) * 2 * (sqlite3_uint64)(nPhrase > 0 ? nPhrase : 1));
        if (d == 0) { sqlite3_result_error_nomem(ctx); return; }
        memset(d, 0, sizeof(*d));
        d->nPhrase = nPhrase;
        d->aIDF = (double *)&d[1];
        d->aFreq = &d->aIDF[nPhrase > 0 ? nPhrase : 1];
        rc = api->xRowCount(fts, &nRow);
        if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &nToken);
        if (rc == SQLITE_OK) d->avgdl = nRow > 0 ? (double)nToken / (double)nRow : 1.0;
        const char *counts = (nVal > 0) ? (const char *)sqlite3_value_text(apVal[0]) : 0;
        for (int i = 0; rc == SQLITE_OK && i < nPhrase; i++) {
            sqlite3_int64 nHit = -1;
            if (counts != 0) {
                char *end = 0;
                long long v = strtoll(counts, &end, 10);
                if (end != counts) { nHit = v; counts = end; } else { counts = 0; }
            }
            if (nHit < 0) {
                nHit = 0;
                rc = api->xQueryPhrase(fts, i, (void *)&nHit, csqlite_bm25_count_row);
            }
            double idf = log(((double)nRow - (double)nHit + 0.5) / ((double)nHit + 0.5));
            if (idf <= 0.0) idf = 1e-6;
            d->aIDF[i] = idf;
        }
        if (rc == SQLITE_OK && fixed > 1) {
            sqlite3_int64 nHit = nVal > 2 ? sqlite3_value_int64(apVal[2]) : 0;
            if (nHit < 0) nHit = 0;
            double idf = log(((double)nRow - (double)nHit + 0.5) / ((double)nHit + 0.5));
            if (idf <= 0.0) idf = 1e-6;
            d->prefixIDF = idf;
        }
        if (rc != SQLITE_OK) {
            sqlite3_free(d);
            sqlite3_result_error_code(ctx, rc);
            return;
        }
        rc = api->xSetAuxdata(fts, (void *)d, csqlite_bm25_free);
        if (rc != SQLITE_OK) { sqlite3_result_error_code(ctx, rc); return; }
    }
    csqlite_bm25_prefix_scan scan = {0, 0, 0.0, 0.0, 0};
    if (fixed > 1) {
        scan.prefix = nVal > 1 ? sqlite3_value_text(apVal[1]) : 0;
        scan.nPrefix = nVal > 1 ? sqlite3_value_bytes(apVal[1]) : 0;
        if (scan.prefix == 0 || scan.nPrefix == 0) {
            sqlite3_result_error(ctx, "bm25_prefixed: the prefix must be a non-empty text", -1);
            return;
        }
        int columns = nVal > 3 ? sqlite3_value_int(apVal[3]) : 0, nCol = api->xColumnCount(fts);
        for (int ic = 0; rc == SQLITE_OK && ic < columns && ic < nCol; ic++) {
            const char *text = 0;
            int nText = 0;
            if (nVal <= 4 + ic) break;
            text = (const char *)sqlite3_value_text(apVal[4 + ic]);
            nText = sqlite3_value_bytes(apVal[4 + ic]);
            if (text == 0 || nText <= 0) continue;
            scan.weight = (nVal > ic + fixed) ? sqlite3_value_double(apVal[ic + fixed]) : 1.0;
            rc = api->xTokenize(fts, text, nText, (void *)&scan, csqlite_bm25_prefix_token);
        }
        if (rc != SQLITE_OK) { sqlite3_result_error_code(ctx, rc); return; }
        if (!scan.found) { sqlite3_result_null(ctx); return; }
    }
    for (int i = 0; i < d->nPhrase; i++) d->aFreq[i] = 0.0;
    int nInst = 0;
    rc = api->xInstCount(fts, &nInst);
    for (int i = 0; rc == SQLITE_OK && i < nInst; i++) {
        int ip = 0, ic = 0, io = 0;
        rc = api->xInst(fts, i, &ip, &ic, &io);
        if (rc == SQLITE_OK && ip >= 0 && ip < d->nPhrase) {
            double w = (nVal > ic + fixed) ? sqlite3_value_double(apVal[ic + fixed]) : 1.0;
            d->aFreq[ip] += w;
        }
    }
    int nTok = 0;
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &nTok);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(ctx, rc); return; }
    double D = (double)nTok, score = 0.0;
    for (int i = 0; i < d->nPhrase; i++) {
        score += d->aIDF[i] * ((d->aFreq[i] * (k1 + 1.0)) / (d->aFreq[i] + k1 * (1 - b + b * D / d->avgdl)));
    }
    if (fixed > 1) {
        score += d->prefixIDF * ((scan.freq * (k1 + 1.0)) / (scan.freq + k1 * (1 - b + b * D / d->avgdl)));
    }
    sqlite3_result_double(ctx, -1.0 * score);
}

static inline void csqlite_bm25_counted(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                                        int nVal, sqlite3_value **apVal) {
    csqlite_bm25_score(api, fts, ctx, nVal, apVal, 1);
}

static inline void csqlite_bm25_prefixed(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                                         int nVal, sqlite3_value **apVal) {
    int columns = nVal > 3 ? sqlite3_value_int(apVal[3]) : 0;
    csqlite_bm25_score(api, fts, ctx, nVal, apVal, 4 + (columns > 0 ? columns : 0));
}

// Registers bm25_counted and bm25_prefixed on the connection (FTS5
// functions are per connection). SQLITE_ERROR when the library has no FTS5.
static inline int csqlite_register_bm25_counted(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (api == 0 || api->iVersion < 2) return SQLITE_ERROR;
    rc = api->xCreateFunction(api, "bm25_counted", 0, csqlite_bm25_counted, 0);
    if (rc != SQLITE_OK) return rc;
    return api->xCreateFunction(api, "bm25_prefixed", 0, csqlite_bm25_prefixed, 0);
}
#endif
