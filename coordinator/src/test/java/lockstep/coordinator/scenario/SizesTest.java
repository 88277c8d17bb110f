package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizesTest {
  @ParameterizedTest
  @CsvSource({
    "4096,4096",
    "4KiB,4096",
    "4k,4096",
    "4KB,4000",
    "2GiB,2147483648",
    "1.5MiB,1572864",
    "1TB,1000000000000",
    "lots,-1",
    "4XB,-1",
    "'',-1",
    "0.3B,-1"
  })
  void parsesLikeDdAndFioUsersWrite(String text, long bytes) {
    assertThat(Sizes.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @CsvSource({"4096,4 KiB", "1572864,1.5 MiB", "100,100 B"})
  void formats(long bytes, String text) {
    assertThat(Sizes.format(bytes)).isEqualTo(text);
  }
}
