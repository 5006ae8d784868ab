#include "app/renewalctl/renewalctl.h"

#include <iostream>

int main(int argc, char **argv)
{
    return rd::cli::runRenewalctl(
        std::vector<std::string>(argv + 1, argv + argc), std::cin, std::cout, std::cerr);
}
