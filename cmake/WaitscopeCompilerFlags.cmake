# Warnings for our own targets; applied through an interface library so that
# third-party headers (Qt, OTF2, MPI) keep their own flags.
add_library(waitscope_warnings INTERFACE)
target_compile_options(waitscope_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
if(WAITSCOPE_WERROR)
  target_compile_options(waitscope_warnings INTERFACE -Werror)
endif()

if(WAITSCOPE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
