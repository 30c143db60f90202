// Everything a user composes: views, load and store transforms, `|`.
#pragma once

#include "expr/expression.hpp"
#include "expr/load_transforms.hpp"
#include "expr/node.hpp"
#include "expr/store_transforms.hpp"
#include "expr/view.hpp"
