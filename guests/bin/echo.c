/*
 * echo: print the arguments, separated by blanks, and a newline.
 */
#include "user.h"

int main(int argc, char *argv[])
{
    for (int i = 1; i < argc; i++)
        printf("%s%s", argv[i], i + 1 < argc ? " " : "");
    printf("\n");
    return 0;
}
