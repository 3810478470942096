#include <libxml/xmlversion.h>
// libxml2's encoding.h would include the system ICU headers, which clash with the ICU that
// Foundation bundles ("… is not present in definition of 'enum UErrorCode'") in any Swift file
// importing both. Nothing here uses libxml2's ICU converter struct, only pointers to it.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
// zlib inflates gzip bodies held in memory (HTTP responses); libxml2 only decompresses files it opens itself.
#include <zlib.h>
