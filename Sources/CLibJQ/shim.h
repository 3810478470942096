#include <jv.h>
#include <jq.h>
